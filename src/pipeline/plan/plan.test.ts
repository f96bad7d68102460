import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServiceClient } from "../../api/client.js";
import type { ServiceClient } from "../../api/client.js";
import { startEmulator } from "../../emulator/server.js";
import type { RunningEmulator } from "../../emulator/server.js";
import { autoSliceLengths, chooseSliceMs, planRun } from "./plan.js";
import type { SourceSpec } from "../../kinds/source-spec.js";
import { defaultComponents } from "../../components/environment.js";

const HOUR = 3_600_000;

function query(overrides: Partial<SourceSpec>): SourceSpec {
  return {
    kind: "logs",
    api: "v2",
    application: "atr",
    app_type: ["ec2"],
    domain: ["*"],
    window: { expression: { start: "2026-11-20T00:00:00Z", end: "2026-11-20T03:00:00Z" } },
    page_size: 1000,
    filters: [],
    includes_eu: true,
    strategy: "auto",
    ...overrides,
  };
}

describe("chooseSliceMs", () => {
  it("takes the longest slice under which no slice passes the limit", () => {
    const start = new Date("2026-11-20T00:00:00Z");
    const end = new Date("2026-11-21T00:00:00Z");
    const counts = {
      counts: new Map(Array.from({ length: 24 }, (_, hour) => [start.getTime() + hour * HOUR, 1000])),
      intervalMs: HOUR,
      requests: 1,
    };
    expect(chooseSliceMs(counts, start, end, 100_000)).toBe(24 * HOUR);
    expect(chooseSliceMs(counts, start, end, 10_000)).toBe(6 * HOUR);
    expect(chooseSliceMs(counts, start, end, 500)).toBe(HOUR);
  });

  // Regression: with `{hour}` in a path, `slice: auto` cut 24h slices, all written under hour=00.
  it("never picks a slice longer than the paths' partition unit", () => {
    const start = new Date("2026-11-20T00:00:00Z");
    const end = new Date("2026-11-21T00:00:00Z");
    const few = { counts: new Map([[start.getTime(), 10]]), intervalMs: HOUR, requests: 1 };
    expect(chooseSliceMs(few, start, end, 100_000, HOUR)).toBe(HOUR);
    expect(chooseSliceMs(few, start, end, 100_000, 24 * HOUR)).toBe(24 * HOUR);
    expect(autoSliceLengths(HOUR)).toEqual([HOUR]);
    expect(autoSliceLengths(24 * HOUR)).toEqual([24 * HOUR, 6 * HOUR, HOUR]);
  });
});

describe("planRun against the emulator", () => {
  let emulator: RunningEmulator;
  let client: ServiceClient;
  // Long settled: no slice is open.
  const window = {
    start: new Date("2026-11-20T00:00:00Z"),
    end: new Date("2026-11-20T03:00:00Z"),
    settle_ms: 15 * 60_000,
    now: new Date("2026-11-25T00:00:00Z"),
  };

  beforeAll(async () => {
    // Dense enough that some hours of logs pass the spec's 100,000 recommendation for scroll.
    emulator = await startEmulator({ seed: 3, density: 40_000 });
    client = createServiceClient({
      baseUrl: emulator.url,
      authUrl: emulator.url,
      clientId: emulator.clientId,
      clientSecret: emulator.clientSecret,
    });
  });
  afterAll(async () => {
    await client.close();
    await emulator.close();
  });

  it("probes once, counts each slice exactly, and sends big slices to batch", async () => {
    const before = emulator.requestCount("/v2/logs/aggs");
    const plan = await planRun({
      client,
      kinds: defaultComponents().kinds,
      query: query({}),
      window: { ...window, slice_ms: "auto" },
    });
    expect(emulator.requestCount("/v2/logs/aggs") - before).toBe(1);
    expect(plan.probeRequests).toBe(1);
    expect(plan.slices.map((slice) => slice.slice.id)).toEqual([
      "20261120T000000Z",
      "20261120T010000Z",
      "20261120T020000Z",
    ]);
    for (const slice of plan.slices) {
      const body = {
        application: "atr",
        app_type: "ec2",
        domain: ["*"],
        start_time: slice.slice.start.toISOString(),
        end_time: slice.slice.end.toISOString(),
        size: 1000,
      };
      expect(slice.expected).toBe(emulator.expectedCount("/v2/logs/scroll", body));
      expect(slice.retrieval).toBe((slice.expected ?? 0) > 100_000 ? "batch" : "scroll");
      expect(slice.requests).toBe(slice.retrieval === "batch" ? 3 : Math.ceil((slice.expected ?? 0) / 1000));
    }
    expect(new Set(plan.slices.map((slice) => slice.retrieval))).toEqual(new Set(["scroll", "batch"]));
    expect(plan.quotaRemaining).toBeGreaterThan(0);
  });

  // Regression: the probe counted per hour whatever the slice, so 15m slices of an hour of 195 records
  // were planned as 195, 0, 0, 0, and a re-check found three of them changed on every run.
  it("counts 15-minute slices at their own grain, each as a query of the slice returns", async () => {
    const plan = await planRun({
      client,
      kinds: defaultComponents().kinds,
      query: query({ kind: "jobs", api: "v3", app_type: ["ec2", "kubernetes"], strategy: "auto" }),
      window: {
        ...window,
        start: new Date("2026-11-20T00:10:00Z"),
        end: new Date("2026-11-20T01:20:00Z"),
        slice_ms: 15 * 60_000,
      },
    });
    expect(plan.slices.map((slice) => slice.slice.id)).toEqual([
      "20261120T001000Z",
      "20261120T001500Z",
      "20261120T003000Z",
      "20261120T004500Z",
      "20261120T010000Z",
      "20261120T011500Z",
    ]);
    for (const slice of plan.slices) {
      const body = {
        application: "atr",
        app_type: ["ec2", "kubernetes"],
        domain: ["*"],
        start_time: slice.slice.start.toISOString(),
        end_time: slice.slice.end.toISOString(),
      };
      expect(slice.expected, slice.slice.id).toBe(emulator.expectedCount("/v3/jobs/query", body));
      expect(slice.expected).toBeGreaterThan(0);
    }
  });

  it("marks the slices that end after now minus settle as open", async () => {
    const plan = await planRun({
      client,
      kinds: defaultComponents().kinds,
      query: query({ kind: "jobs", api: "v3", app_type: ["ec2"], strategy: "pit" }),
      window: {
        ...window,
        end: new Date("2026-11-20T02:43:57.692Z"),
        now: new Date("2026-11-20T02:43:57.692Z"),
        slice_ms: 15 * 60_000,
      },
    });
    const open = plan.slices.filter((slice) => slice.open).map((slice) => slice.slice.id);
    // 02:15–02:30 ends after 02:28:57.692; 02:00–02:15 does not.
    expect(open).toEqual(["20261120T021500Z", "20261120T023000Z"]);
  });

  // Regression: a --now ahead of the clock settled slices the service had not indexed yet.
  it("settles nothing the machine's clock says is after now minus settle, whatever the run's now", async () => {
    const plan = await planRun({
      client,
      kinds: defaultComponents().kinds,
      query: query({ kind: "jobs", api: "v3", app_type: ["ec2"], strategy: "pit" }),
      window: {
        ...window,
        end: new Date("2026-11-20T03:00:00Z"),
        now: new Date("2026-11-20T03:04:00Z"),
        settle_ms: 0,
        slice_ms: 15 * 60_000,
      },
      wallClock: () => new Date("2026-11-20T02:40:00Z"),
    });
    const open = plan.slices.filter((slice) => slice.open).map((slice) => slice.slice.id);
    expect(open).toEqual(["20261120T023000Z", "20261120T024500Z"]);
  });

  it("spends no request on a probe when the strategy and slice are fixed", async () => {
    const before = emulator.requestCount();
    const plan = await planRun({
      client,
      kinds: defaultComponents().kinds,
      query: query({ kind: "jobs", api: "v3", app_type: ["ec2", "kubernetes"], strategy: "pit" }),
      window: { ...window, slice_ms: HOUR },
    });
    expect(emulator.requestCount() - before).toBe(0);
    expect(plan.slices.every((slice) => slice.retrieval === "pit" && slice.expected === undefined)).toBe(
      true,
    );
    expect(plan.expectedRecords).toBeUndefined();
  });
});
