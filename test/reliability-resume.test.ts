// Resuming through the CLI: a batch export's token survives a stop (the rerun asks for no new batch),
// the quota reserve stops a run resumably and a new quota day completes it exactly, and a pipeline
// changed after a run is refused unless --force, which rewrites the output as the new export.
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  SERVICE_FROM_ENV,
  compareExactly,
  dataFiles,
  expectedRows,
  listTree,
  readJson,
  readNdjsonRecords,
  runCli,
  testScope,
  temporaryFiles,
  waitFor,
  writePipeline,
} from "./support/cli-harness.js";
import { jobsSource, logsBatchSource } from "./support/jobs-pipeline.js";
import { readRunState } from "./support/run-state.js";
import type { Row } from "./support/cli-harness.js";

const START = "2026-11-20T00:00:00Z";
const scope = testScope();
afterAll(scope.cleanUp);
const tempDir = scope.tempDir;

/** The batch exports in progress in the state, with the token of each slice's first batch request. */
async function batchesInState(out: string): Promise<Record<string, { token: string | undefined }>> {
  try {
    const batches = (await readRunState(out))?.batches as unknown as Record<
      string,
      { tokens: Record<string, string> }
    >;
    return Object.fromEntries(
      Object.entries(batches).map(([slice, batch]) => [slice, { token: batch.tokens["0"] }]),
    );
  } catch {
    return {};
  }
}

describe("a batch export survives a stop", () => {
  it("keeps the token in the state; the rerun polls and downloads it without a new batch request", async () => {
    // Partitions need two status polls, so the first run is stopped while it waits between polls.
    const service = await scope.startService({ seed: 8, density: 15, batchReadyAfterPolls: 2 });
    const dir = await tempDir("batch-resume");
    const out = join(dir, "out");
    const end = "2026-11-20T01:00:00Z";
    const file = await writePipeline(dir, {
      name: "batch-resume",
      service: SERVICE_FROM_ENV,
      source: logsBatchSource(START, end, "1h"),
      sinks: [{ format: "ndjson", to: out }],
    });
    const controller = new AbortController();
    const first = runCli(["run", file], { env: service.env, signal: controller.signal });
    const saved = await waitFor(async () => {
      const batches = await batchesInState(out);
      return Object.values(batches)[0]?.token;
    }, "the batch token in the state");
    controller.abort();
    expect((await first).code).toBe(75);
    expect(service.emulator.requestCount("/v2/logs/batch")).toBe(1);
    expect(Object.values(await batchesInState(out)).map((batch) => batch.token)).toEqual([saved]);

    const second = await runCli(["run", file], { env: service.env });
    expect(second.code, second.stderr).toBe(0);
    expect(service.emulator.requestCount("/v2/logs/batch")).toBe(1);
    const expected = await expectedRows(service.emulator, "/v2/logs/scroll", [
      { application: "atr", app_type: "ec2", domain: ["*"], start_time: START, end_time: end },
    ]);
    expect(expected.size).toBeGreaterThan(10);
    expect(compareExactly(await readNdjsonRecords(out), expected)).toBeUndefined();
    // Committed: the batch is no longer in progress.
    expect(await batchesInState(out)).toEqual({});
  });
});

describe("quota", () => {
  it("stops at the reserve with exit 75 and how to resume; a new quota day completes it exactly", async () => {
    // The emulator's clock runs with real time (tokens are judged by it), shifted to move the quota day.
    let shift = 0;
    const service = await scope.startService({
      seed: 2,
      density: 20,
      quota: 40,
      clock: () => Date.now() + shift,
    });
    const dir = await tempDir("quota");
    const out = join(dir, "out");
    const end = "2026-11-20T06:00:00Z";
    const file = await writePipeline(dir, {
      name: "quota",
      service: SERVICE_FROM_ENV,
      source: {
        kind: "jobs",
        application: "atr",
        app_type: ["ec2", "kubernetes"],
        domain: ["*"],
        strategy: "pit",
        window: { start: START, end, slice: "1h" },
        page_size: 25,
      },
      sinks: [{ format: "ndjson", to: out }],
      limits: { concurrency: 1, quota_reserve: 10 },
    });
    const first = await runCli(["run", file], { env: service.env });
    expect(first.code, first.stderr).toBe(75);
    expect(first.stderr).toMatch(/quota/i);
    expect(first.stderr).toMatch(/run the same command after the daily quota resets to resume/);
    const state = await readJson(join(out, "_mdq-export/state.json"));
    const committed = Object.keys(state.slices as Row).length;
    expect(committed).toBeGreaterThan(0);
    expect(committed).toBeLessThan(6);
    // The reserve was respected: the client stopped before spending it.
    const spent = service.emulator.requestCount() - service.emulator.requestCount("/oauth2/token");
    expect(spent).toBe(40 - 10);
    expect(temporaryFiles(await listTree(out))).toEqual([]);

    shift += 24 * 3600_000; // a new UTC day: a fresh quota
    const second = await runCli(["run", file], { env: service.env });
    expect(second.code, second.stderr).toBe(0);
    const expected = await expectedRows(service.emulator, "/v3/jobs/query", [
      {
        application: "atr",
        app_type: ["ec2", "kubernetes"],
        domain: ["*"],
        start_time: START,
        end_time: end,
      },
    ]);
    expect(compareExactly(await readNdjsonRecords(out), expected)).toBeUndefined();
  });
});

describe("pipeline change detection", () => {
  const pipelineWith = (
    out: string,
    changes: { fields?: readonly string[]; transforms?: readonly object[]; gzip?: boolean },
  ) => ({
    name: "changes",
    service: SERVICE_FROM_ENV,
    source: jobsSource(
      START,
      "2026-11-20T03:00:00Z",
      changes.fields !== undefined ? { fields: changes.fields } : {},
    ),
    ...(changes.transforms !== undefined ? { transforms: changes.transforms } : {}),
    sinks: [{ format: "ndjson", to: out, gzip: changes.gzip ?? false }],
  });

  it.each([
    ["fields", { fields: ["job.id", "atr.domain_name"] }],
    ["transforms", { transforms: [{ add: { origin: { value: "mdq" } } }] }],
    ["format", { gzip: true }],
  ] as const)(
    "a changed %s is refused with exit 2; --force rewrites exactly the new export",
    async (_, change) => {
      const service = await scope.startService({ seed: 6, density: 10 });
      const dir = await tempDir("changes");
      const out = join(dir, "out");
      const file = await writePipeline(dir, pipelineWith(out, {}));
      expect((await runCli(["run", file], { env: service.env })).code).toBe(0);
      const before = await listTree(out);

      await writePipeline(dir, pipelineWith(out, change));
      const requests = service.emulator.requestCount();
      const refused = await runCli(["run", file], { env: service.env });
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(/the pipeline changed since the output/);
      expect(refused.stderr).toMatch(/--force/);
      expect(await listTree(out)).toEqual(before);

      const forced = await runCli(["run", file, "--force"], { env: service.env });
      expect(forced.code, forced.stderr).toBe(0);
      expect(service.emulator.requestCount()).toBeGreaterThan(requests);
      const written = await readNdjsonRecords(out);
      const expected = await expectedRows(service.emulator, "/v3/jobs/query", [
        {
          application: "atr",
          app_type: ["ec2"],
          domain: ["*"],
          start_time: START,
          end_time: "2026-11-20T03:00:00Z",
          ...("fields" in change ? { fields: change.fields } : {}),
        },
      ]);
      const shaped = new Map(
        [...expected].map(([id, row]) => [id, "transforms" in change ? { ...row, origin: "mdq" } : row]),
      );
      expect(compareExactly(written, shaped)).toBeUndefined();
      // Only the new export's files remain.
      const files = dataFiles(await listTree(out));
      expect(files.every((path) => path.endsWith("gzip" in change ? ".ndjson.gz" : ".ndjson"))).toBe(true);
      // And a plain rerun now accepts the new pipeline, skipping everything.
      const again = await runCli(["run", file], { env: service.env });
      expect(again.code, again.stderr).toBe(0);
    },
  );
});

describe("an interrupted --force", () => {
  it("leaves no old-pipeline slice counted as done: the plain rerun finishes the new export exactly", async () => {
    const service = await scope.startService({ seed: 6, density: 10 });
    const dir = await tempDir("force-stop");
    const out = join(dir, "out");
    const pipeline = (gzip: boolean) => ({
      name: "force-stop",
      service: SERVICE_FROM_ENV,
      source: {
        kind: "jobs",
        application: "atr",
        app_type: ["ec2"],
        domain: ["*"],
        strategy: "pit",
        window: { start: START, end: "2026-11-20T04:00:00Z", slice: "1h" },
        page_size: 10,
      },
      sinks: [{ format: "ndjson", to: out, gzip }],
      limits: { concurrency: 1 },
    });
    const file = await writePipeline(dir, pipeline(false));
    expect((await runCli(["run", file], { env: service.env })).code).toBe(0);

    await writePipeline(dir, pipeline(true));
    service.emulator.setFaults({ latencyMs: 20 });
    const controller = new AbortController();
    const forced = runCli(["run", file, "--force"], { env: service.env, signal: controller.signal });
    await waitFor(
      async () => dataFiles(await listTree(out)).some((path) => path.endsWith(".gz")),
      "a new file",
    );
    controller.abort();
    expect((await forced).code).toBe(75);
    service.emulator.setFaults({});

    const rerun = await runCli(["run", file], { env: service.env });
    expect(rerun.code, rerun.stderr).toBe(0);
    const files = dataFiles(await listTree(out));
    expect(files.filter((path) => !path.endsWith(".ndjson.gz"))).toEqual([]);
    const expected = await expectedRows(service.emulator, "/v3/jobs/query", [
      {
        application: "atr",
        app_type: ["ec2"],
        domain: ["*"],
        start_time: START,
        end_time: "2026-11-20T04:00:00Z",
      },
    ]);
    expect(compareExactly(await readNdjsonRecords(out), expected)).toBeUndefined();
  });
});
