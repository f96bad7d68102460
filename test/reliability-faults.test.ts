// Fault injection through the CLI: with 5xx, resets, 429 (Retry-After 0), truncated bodies, lost
// contexts, revoked tokens and latency on, every kind and record strategy exports exactly the records
// the emulator holds — each id once, every value equal.
import { describe, expect } from "vitest";
import type { FaultOptions } from "../src/emulator/server.js";
import {
  SERVICE_FROM_ENV,
  compareExactly,
  expectedRows,
  listTree,
  readNdjsonRecords,
  runCli,
  startTestService,
  temporaryFiles,
  writePipeline,
} from "./support/cli-harness.js";
import type { TestService } from "./support/cli-harness.js";
import { useEmulator } from "./support/use-emulator.js";

const START = "2026-11-20T00:00:00Z";
const END = "2026-11-20T04:00:00Z";

/** Every fault at once, at rates the default retry policy gets through; Retry-After 0 keeps it fast. */
const FAULTS: FaultOptions = {
  errorRate: 0.08,
  rateLimitRate: 0.05,
  retryAfterSeconds: 0,
  resetRate: 0.05,
  truncateRate: 0.04,
  contextLossRate: 0.05,
  tokenRevocationRate: 0.05,
  latencyMs: 1,
  jitterMs: 3,
};

interface Case {
  name: string;
  source: Record<string, unknown>;
  /** The operation whose paging the expected records come from, and the bodies (one per request). */
  target: Parameters<TestService["emulator"]["expectedHits"]>[0];
  bodies: Record<string, unknown>[];
}

const window = { start_time: START, end_time: END };
const CASES: Case[] = [
  {
    name: "logs v2 scroll",
    source: { kind: "logs", app_type: ["ec2", "kubernetes"], domain: ["*"], strategy: "scroll" },
    target: "/v2/logs/scroll",
    bodies: ["ec2", "kubernetes"].map((app_type) => ({
      application: "atr",
      app_type,
      domain: ["*"],
      ...window,
      size: 1000,
    })),
  },
  {
    name: "logs v2 batch",
    source: { kind: "logs", app_type: ["ec2"], domain: ["*"], strategy: "batch" },
    target: "/v2/logs/scroll",
    bodies: [{ application: "atr", app_type: "ec2", domain: ["*"], ...window, size: 1000 }],
  },
  {
    name: "workloads scroll",
    source: { kind: "workloads", app_type: ["kubernetes"], domain: ["*"], strategy: "scroll" },
    target: "/v2/workloads/scroll",
    bodies: [{ application: "atr", app_type: "kubernetes", domain: ["*"], ...window, size: 1000 }],
  },
  {
    name: "workloads batch",
    source: { kind: "workloads", app_type: ["ec2"], domain: ["*"], strategy: "batch" },
    target: "/v2/workloads/scroll",
    bodies: [{ application: "atr", app_type: "ec2", domain: ["*"], ...window, size: 1000 }],
  },
  {
    name: "jobs point in time",
    source: { kind: "jobs", app_type: ["ec2", "kubernetes"], domain: ["*"], strategy: "pit" },
    target: "/v3/jobs/query",
    bodies: [{ application: "atr", app_type: ["ec2", "kubernetes"], domain: ["*"], ...window, size: 1000 }],
  },
  {
    name: "tickets point in time",
    source: { kind: "tickets", app_type: ["ec2"], domain: ["*"], strategy: "pit" },
    target: "/v3/tickets/query",
    bodies: [{ application: "atr", app_type: ["ec2"], domain: ["*"], ...window, size: 1000 }],
  },
  {
    name: "metrics scroll",
    source: { kind: "metrics", app_type: ["ec2"], domain: ["*"], strategy: "scroll" },
    target: "/v3/metrics/query",
    bodies: [{ application: "atr", app_type: ["ec2"], domain: ["*"], ...window, size: 1000 }],
  },
  {
    name: "jobs auto (planner's choice)",
    source: { kind: "jobs", app_type: ["kubernetes"], domain: ["*"], strategy: "auto" },
    target: "/v3/jobs/query",
    bodies: [{ application: "atr", app_type: ["kubernetes"], domain: ["*"], ...window, size: 1000 }],
  },
];

const it = useEmulator({ seed: 11, density: 20, batchReadyAfterPolls: 0, faults: FAULTS }, { preset: false });
let retriesLogged = 0;

describe("export under every fault", () => {
  it.for(CASES)(
    "$name: output equals the service's records exactly",
    async (testCase, { service, workspace }) => {
      const dir = await workspace.folder("faults");
      const out = `${dir}/out`;
      const file = await writePipeline(dir, {
        name: "faults",
        service: SERVICE_FROM_ENV,
        source: {
          application: "atr",
          ...testCase.source,
          window: { start: START, end: END, slice: "1h" },
          page_size: 25,
        },
        sinks: [{ format: "ndjson", to: out, path: "part-{slice}-{seq}.{ext}", max_rows_per_file: 120 }],
        limits: { concurrency: 2, max_retries_per_slice: 6 },
      });
      const before = service.emulator.requestCounts();
      const result = await runCli(["run", file, "--log-level", "warn"], { env: service.env });
      expect(result.code, result.stderr).toBe(0);

      const expected = await expectedRows(service.emulator, testCase.target, testCase.bodies);
      expect(expected.size).toBeGreaterThan(50);
      expect(compareExactly(await readNdjsonRecords(out), expected)).toBeUndefined();
      expect(temporaryFiles(await listTree(out))).toEqual([]);
      // The faults really happened: retries were logged.
      const after = service.emulator.requestCounts();
      const sent = Object.entries(after).reduce((sum, [path, n]) => sum + n - (before[path] ?? 0), 0);
      expect(sent).toBeGreaterThan(8);
      retriesLogged += result.logs.filter((line) => line.level === "warn").length;
    },
  );

  it("really met the faults (every kind was drawn, and retries were logged across the exports)", ({
    service,
  }) => {
    const drawn = service.emulator.faultCounts();
    for (const [fault, times] of Object.entries(drawn)) expect(times, fault).toBeGreaterThan(0);
    expect(retriesLogged).toBeGreaterThan(20);
  });
});

describe("failing workload batch partitions", () => {
  // Its own emulators: the failing one is closed and a healthy one started on the same port.
  it("asks for the batch again, stops naming the slice, and a rerun after the service recovers is exact", async ({
    workspace,
  }) => {
    const dir = await workspace.folder("failing-partitions");
    const out = `${dir}/out`;
    // Half-hour partitions: each 1 h slice's batch has partitions 0 and 1, and partition 1 always fails.
    const broken = await startTestService({
      seed: 5,
      density: 10,
      batchReadyAfterPolls: 0,
      batchPartitionSeconds: 1800,
      failingPartitions: [1],
    });
    const port = new URL(broken.emulator.url).port;
    const file = await writePipeline(dir, {
      name: "failing-partitions",
      service: SERVICE_FROM_ENV,
      source: {
        kind: "workloads",
        application: "atr",
        app_type: ["ec2"],
        domain: ["*"],
        strategy: "batch",
        window: { start: START, end: "2026-11-20T02:00:00Z", slice: "1h" },
      },
      sinks: [{ format: "ndjson", to: out }],
      limits: { concurrency: 1, max_retries_per_slice: 1 },
    });
    const first = await runCli(["run", file], { env: broken.env });
    const batchRequests = broken.emulator.requestCount("/v2/workloads/batch");
    await broken.close();
    // A batch that keeps failing is not something a rerun fixes by itself: exit 1, naming slice and export.
    expect(first.code).toBe(1);
    expect(first.stderr).toMatch(/20261120T000000Z/);
    expect(first.stderr).toMatch(/failed partitions/);
    // The batch was asked for again (three batch requests in all), then the slice gave up.
    expect(first.stderr).toMatch(/after 3 batch requests/);
    expect(batchRequests).toBe(3);
    expect(await readNdjsonRecords(out)).toEqual([]);
    expect(temporaryFiles(await listTree(out))).toEqual([]);

    const healthy = await startTestService({
      seed: 5,
      density: 10,
      batchReadyAfterPolls: 0,
      batchPartitionSeconds: 1800,
      port: Number(port),
    });
    try {
      const second = await runCli(["run", file], { env: healthy.env });
      expect(second.code, second.stderr).toBe(0);
      const expected = await expectedRows(healthy.emulator, "/v2/workloads/scroll", [
        {
          application: "atr",
          app_type: "ec2",
          domain: ["*"],
          start_time: START,
          end_time: "2026-11-20T02:00:00Z",
        },
      ]);
      expect(expected.size).toBeGreaterThan(10);
      expect(compareExactly(await readNdjsonRecords(out), expected)).toBeUndefined();
    } finally {
      await healthy.close();
    }
  });
});
