// A faulty export at debug level: no captured log line or error (message, stack, cause chain,
// properties) shows the client secret, an access token or a presigned URL signature.
import { Writable } from "node:stream";
import { pageThrough } from "../src/api/paging/pager.js";
import { inspect } from "node:util";
import { afterAll, expect, it } from "vitest";
import { EtlError } from "../src/errors.js";
import { createLogger } from "../src/logger.js";
import { startEmulator } from "../src/emulator/server.js";
import { createServiceClient } from "../src/api/client.js";
import { readPartition } from "../src/api/paging/read-partition.js";
import { awaitBatchReady } from "../src/api/paging/batch-status.js";
import { v2BatchExport } from "../src/api/paging/batch-exports.js";
import { v2HitArray } from "../src/api/hit-arrays.js";
import { logsScroll } from "../src/kinds/logs.js";

const SECRET = "very-secret-client-value-42";
const cleanup: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const close of cleanup.splice(0)) await close();
});

function describeError(error: unknown, depth = 0): string {
  if (depth > 10 || error === undefined || error === null) return "";
  const own =
    error instanceof Error ? JSON.stringify(error, Object.getOwnPropertyNames(error)) : String(error);
  const cause = error instanceof Error ? describeError(error.cause, depth + 1) : "";
  return [inspect(error, { depth: 10 }), own, cause].join("\n");
}

it("keeps secrets out of logs and errors during a faulty export", async () => {
  let now = Date.parse("2026-11-22T00:00:00Z");
  const clock = { now: () => now, sleep: async (ms: number) => void (now += ms) };
  const emulator = await startEmulator({
    seed: 9,
    density: 20,
    clock: () => now,
    clientSecret: SECRET,
    failingPartitions: [2],
    downloadUrlTtlSeconds: 1,
    batchReadyAfterPolls: 1,
    faults: {
      errorRate: 0.1,
      rateLimitRate: 0.05,
      resetRate: 0.1,
      truncateRate: 0.1,
      contextLossRate: 0.1,
      tokenRevocationRate: 0.15,
    },
  });
  const lines: string[] = [];
  const destination = new Writable({
    write: (chunk: Buffer, _e, done) => void (lines.push(chunk.toString()), done()),
  });
  const client = createServiceClient({
    baseUrl: emulator.url,
    authUrl: emulator.url,
    clientId: emulator.clientId,
    clientSecret: SECRET,
    clock,
    random: () => 0.5,
    logger: createLogger({ level: "debug", destination }),
    retry: { maxAttempts: 3, maxElapsedMs: 60_000 },
  });
  cleanup.push(async () => {
    await client.close();
    await emulator.close();
  });
  const errors: unknown[] = [];
  const signal = new AbortController().signal;
  const window = { start_time: "2026-11-20T00:00:00Z", end_time: "2026-11-20T04:00:00Z" };
  const attempt = async (run: () => Promise<void>) => {
    await run().catch((error: unknown) => void errors.push(error));
  };
  for (let i = 0; i < 3; i += 1) {
    await attempt(async () => {
      const query = v2BatchExport(
        "/v2/logs/batch",
        { application: "atr", app_type: "ec2", domain: ["*"], ...window },
        "log_count",
      );
      const { token, partitions } = await awaitBatchReady(client, query);
      for (const partition of partitions) {
        for await (const _ of readPartition(client, query, token, partition, 1000, signal)) {
          now += 5000; // links expire (1 s) while the export runs: refused downloads get fresh links
        }
      }
    });
    await attempt(async () => {
      const query = v2BatchExport(
        "/v2/workloads/batch",
        { application: "atr", app_type: "ec2", domain: ["*"], ...window },
        "workload_count",
      );
      const { token, partitions } = await awaitBatchReady(client, query);
      for (const partition of partitions)
        for await (const _ of readPartition(client, query, token, partition, 1000, signal));
    });
    await attempt(async () => {
      for await (const _ of pageThrough(
        client,
        logsScroll({ application: "atr", app_type: "ec2", domain: ["*"], size: 10, ...window }),
        v2HitArray("logs"),
      ));
    });
  }
  // A download link to a port nothing listens on: undici's error must not carry the signature.
  await attempt(async () => {
    await client.download("http://127.0.0.1:9/downloads/x/0?expires=1&signature=SIGNATUREVALUE123456");
  });
  emulator.revokeTokens();
  await attempt(async () => void (await client.call("/v3/jobs/mappings", {})));

  expect(errors.length).toBeGreaterThan(2);
  const codes = errors.map((error) => (error instanceof EtlError ? error.code : undefined));
  expect(codes).toContain("BATCH_EXPORT_FAILED");
  expect(codes).toContain("NETWORK_ERROR");
  const tokens = client.secrets().filter((value) => value !== SECRET);
  expect(tokens.length).toBeGreaterThan(1);
  const texts = [...lines, ...errors.map((error) => describeError(error))];
  expect(lines.some((line) => line.includes('"level":"debug"'))).toBe(true);
  for (const text of texts) {
    expect(text).not.toContain(SECRET);
    for (const token of tokens) expect(text).not.toContain(token);
    expect(text).not.toMatch(/signature=(?!\[)/i);
    expect(text).not.toContain("SIGNATUREVALUE123456");
    expect(text).not.toMatch(/eyJ[\w-]{4,}\.[\w-]{4,}/);
  }
});
