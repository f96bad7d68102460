// Batch exports against the emulator with faults on, read as the batch source reads them (wait for
// the batch, then each partition): every partition format read to its end equals the emulator's
// records; failing partitions are requested again within bounds; a rerun resumes with the saved token
// and skips the partitions already downloaded.
import { afterEach, describe, expect, it } from "vitest";
import { BatchExportError } from "../src/errors.js";
import { startEmulator } from "../src/emulator/server.js";
import type { EmulatorOptions, PartitionFormat } from "../src/emulator/options.js";
import type { RunningEmulator } from "../src/emulator/server.js";
import { createServiceClient } from "../src/api/client.js";
import type { ServiceClient } from "../src/api/client.js";
import { readPartition } from "../src/api/paging/read-partition.js";
import { awaitBatchReady } from "../src/api/paging/batch-status.js";
import type { BatchExport, BatchPollOptions } from "../src/api/paging/batch-status.js";
import { v1BatchExport, v2BatchExport } from "../src/api/paging/batch-exports.js";

const FAULTS = {
  errorRate: 0.08,
  rateLimitRate: 0.05,
  resetRate: 0.05,
  truncateRate: 0.05,
  tokenRevocationRate: 0.05,
};
const window = { start_time: "2026-11-20T00:00:00Z", end_time: "2026-11-20T05:00:00Z" };
const open: { emulator: RunningEmulator; client: ServiceClient }[] = [];

async function setup(
  options: EmulatorOptions,
): Promise<{ emulator: RunningEmulator; client: ServiceClient }> {
  let now = Date.parse("2026-11-22T00:00:00Z");
  const emulator = await startEmulator({ seed: 5, density: 30, clock: () => now, ...options });
  const client = createServiceClient({
    baseUrl: emulator.url,
    authUrl: emulator.url,
    clientId: emulator.clientId,
    clientSecret: emulator.clientSecret,
    clock: { now: () => now, sleep: async (ms) => void (now += ms) },
    random: () => 0.5,
    retry: { maxAttempts: 12, maxElapsedMs: 600_000 },
  });
  open.push({ emulator, client });
  return { emulator, client };
}

afterEach(async () => {
  for (const { emulator, client } of open.splice(0)) {
    await client.close();
    await emulator.close();
  }
});

async function expectedIds(
  emulator: RunningEmulator,
  path: "/v2/logs/scroll" | "/v2/workloads/scroll" | "/v1/logs/scroll",
  body: Record<string, unknown>,
): Promise<string[]> {
  const ids: string[] = [];
  for await (const hit of emulator.expectedHits(path, body)) ids.push(hit._id);
  return ids.sort();
}

function idOf(record: Record<string, unknown>): string {
  return typeof record["_id"] === "string" ? record["_id"] : JSON.stringify(record);
}

interface ExportOptions extends BatchPollOptions {
  /** Partitions already downloaded by an earlier run. */
  skip?: readonly string[];
  /** Stop after this many partitions, as a run that is stopped midway. */
  stopAfter?: number;
}

/** The ids of every record of the batch, and the partitions read to their end, in order. */
async function exportBatch(
  client: ServiceClient,
  batch: BatchExport,
  options: ExportOptions = {},
): Promise<{ ids: string[]; done: string[] }> {
  const { token, partitions } = await awaitBatchReady(client, batch, options);
  const signal = new AbortController().signal;
  const ids: string[] = [];
  const done: string[] = [];
  for (const partition of partitions) {
    if (options.skip?.includes(partition.id) === true) continue;
    if (done.length === options.stopAfter) break;
    for await (const records of readPartition(client, batch, token, partition, 50, signal))
      ids.push(...records.map(idOf));
    done.push(partition.id);
  }
  return { ids, done };
}

const logsBody = { application: "atr" as const, app_type: "ec2" as const, domain: ["*"], ...window };
const workloadsBody = {
  application: "atr" as const,
  app_type: "kubernetes" as const,
  domain: ["*"],
  ...window,
};

describe("batch export against the emulator with faults on", () => {
  const formats: PartitionFormat[] = ["ndjson", "ndjson-gzip", "json-array"];
  for (const partitionFormat of formats) {
    it(`v2 logs and workloads, ${partitionFormat}`, async () => {
      const { emulator, client } = await setup({ partitionFormat, faults: FAULTS, batchReadyAfterPolls: 2 });
      for (const [batch, path, body] of [
        [v2BatchExport("/v2/logs/batch", logsBody, "log_count"), "/v2/logs/scroll", logsBody],
        [
          v2BatchExport("/v2/workloads/batch", workloadsBody, "workload_count"),
          "/v2/workloads/scroll",
          workloadsBody,
        ],
      ] as const) {
        const { ids, done } = await exportBatch(client, batch);
        const expected = await expectedIds(emulator, path, { ...body, size: 100 });
        expect(expected.length).toBeGreaterThan(50);
        expect(ids.sort()).toEqual(expected);
        expect(done).toHaveLength(5);
      }
    });
  }

  it("v1 logs batch through batch/urls", async () => {
    const { emulator, client } = await setup({ partitionFormat: "json-array", faults: FAULTS });
    const body = { application: "atr" as const, time_range: "now-3h/h" };
    const { ids } = await exportBatch(client, v1BatchExport("/v1/logs/batch", body, "log_count"));
    expect(ids.sort()).toEqual(await expectedIds(emulator, "/v1/logs/scroll", { ...body, size: 100 }));
  });

  it("requests a batch with failed partitions again, within bounded attempts", async () => {
    const { emulator, client } = await setup({ failingPartitions: [1] });
    const tokens: string[] = [];
    const error = await exportBatch(
      client,
      v2BatchExport("/v2/workloads/batch", workloadsBody, "workload_count"),
      { onToken: (t) => void tokens.push(t) },
    ).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BatchExportError);
    expect(String(error)).toMatch(/failed partitions .*2026-11-20T01:00:00/);
    expect(emulator.requestCount("/v2/workloads/batch")).toBe(3);
    expect(new Set(tokens).size).toBe(3);
  });

  it("resumes with a saved token and skips downloaded partitions; an expired token asks for a new batch", async () => {
    const { emulator, client } = await setup({ partitionFormat: "ndjson" });
    const query = v2BatchExport("/v2/logs/batch", logsBody, "log_count");
    let token = "";
    // The first run stops after two partitions.
    const first = await exportBatch(client, query, { onToken: (t) => void (token = t), stopAfter: 2 });
    expect(first.done).toHaveLength(2);
    const downloadsBefore = emulator.requestCount("/downloads");
    const rest = await exportBatch(client, query, { resumeToken: token, skip: first.done });
    expect(emulator.requestCount("/v2/logs/batch")).toBe(1);
    expect(emulator.requestCount("/downloads") - downloadsBefore).toBe(3);
    expect([...first.ids, ...rest.ids].sort()).toEqual(
      await expectedIds(emulator, "/v2/logs/scroll", { ...logsBody, size: 100 }),
    );

    const again = await exportBatch(client, query, { resumeToken: "bt_expired" });
    expect(emulator.requestCount("/v2/logs/batch")).toBe(2);
    expect(again.ids.sort()).toEqual(
      await expectedIds(emulator, "/v2/logs/scroll", { ...logsBody, size: 100 }),
    );
  });
});
