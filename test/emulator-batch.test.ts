// Contract: batch exports from token to downloaded partitions: transitions, counts equal to the file
// records, every record of the query exactly once, failing workload partitions, expiring signatures and tokens.
import { gunzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { request } from "undici";
import { startEmulator } from "../src/emulator/server.js";
import type { EmulatorOptions, RunningEmulator } from "../src/emulator/server.js";
import { fetchToken, manualClock, post, WINDOW } from "./emulator-http.js";

const running: RunningEmulator[] = [];
async function start(options: EmulatorOptions): Promise<{ emulator: RunningEmulator; token: string }> {
  const emulator = await startEmulator({ seed: 5, density: 6, ...options });
  running.push(emulator);
  return { emulator, token: await fetchToken(emulator) };
}
afterEach(async () => {
  await Promise.all(running.splice(0).map((e) => e.close()));
});

interface PartitionRecord {
  status: string;
  ready?: boolean;
  completed: boolean;
  presigned_url: string;
  log_count?: number;
  workload_count?: number;
}

async function download(url: string): Promise<{ status: number; records: { _id: string }[] }> {
  const response = await request(url);
  const bytes = Buffer.from(await response.body.arrayBuffer());
  if (response.statusCode !== 200) return { status: response.statusCode, records: [] };
  const type = String(response.headers["content-type"]);
  const text = type.includes("gzip") ? gunzipSync(bytes).toString("utf8") : bytes.toString("utf8");
  if (type.includes("application/json"))
    return { status: 200, records: JSON.parse(text) as { _id: string }[] };
  return {
    status: 200,
    records: text
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { _id: string }),
  };
}

const logsBody = {
  application: "atr",
  ...WINDOW,
  app_type: "kubernetes",
  domain: ["alpha.example", "bravo.example"],
};

describe("batch export lifecycle", () => {
  for (const format of ["ndjson-gzip", "ndjson", "json-array"] as const) {
    it(`v2 logs (${format}): pending, then completed with counts equal to the file records`, async () => {
      const { emulator, token } = await start({ partitionFormat: format, batchReadyAfterPolls: 2 });
      const created = await post(emulator, "/v2/logs/batch", logsBody, token);
      const batchToken = (created.body["data"] as { token: string }).token;
      const poll = async () =>
        (await post(emulator, "/v2/logs/batch/status", { token: batchToken }, token)).body[
          "presigned_urls"
        ] as PartitionRecord[];
      const first = await poll();
      expect(first).toHaveLength(7);
      expect(
        first.every(
          (p) => p.status === "pending" && p.presigned_url === "null" && !p.completed && p.log_count === 0,
        ),
      ).toBe(true);
      expect((await poll()).every((p) => p.status === "processing")).toBe(true);
      const done = await poll();
      expect(done.every((p) => p.status === "completed" && p.completed)).toBe(true);
      const ids: string[] = [];
      for (const partition of done) {
        const file = await download(partition.presigned_url);
        expect(file.records).toHaveLength(partition.log_count ?? -1);
        ids.push(...file.records.map((r) => r._id));
      }
      const want: string[] = [];
      for await (const hit of emulator.expectedHits("/v2/logs/batch", logsBody)) want.push(hit._id);
      expect(want.length).toBeGreaterThan(20);
      expect(ids).toEqual(want);
    });
  }

  it("v2 workloads: configured partitions fail; the rest complete", async () => {
    const { emulator, token } = await start({ failingPartitions: [1], batchReadyAfterPolls: 0 });
    const created = await post(emulator, "/v2/workloads/batch", { ...logsBody, app_type: "ec2" }, token);
    const batchToken = (created.body["data"] as { token: string }).token;
    const status = await post(emulator, "/v2/workloads/batch/status", { token: batchToken }, token);
    const partitions = status.body["presigned_urls"] as PartitionRecord[];
    expect(partitions.map((p) => p.status)).toEqual([
      "completed",
      "failed",
      "completed",
      "completed",
      "completed",
      "completed",
      "completed",
    ]);
    expect(partitions[1]).toMatchObject({ completed: false, presigned_url: "null", workload_count: 0 });
    const file = await download(partitions[0]?.presigned_url ?? "");
    expect(file.records).toHaveLength(partitions[0]?.workload_count ?? -1);
  });

  it("v1 logs: token, then links that become ready", async () => {
    const { emulator, token } = await start({ batchReadyAfterPolls: 1, batchPartitionSeconds: 86_400 });
    const created = await post(
      emulator,
      "/v1/logs/batch",
      { application: "atr", time_range: "now-2d/d", domain: "alpha.example" },
      token,
    );
    const batchToken = String(created.body["token"]);
    const urls = async () =>
      (await post(emulator, "/v1/logs/batch/urls", { token: batchToken }, token)).body[
        "presigned_urls"
      ] as PartitionRecord[];
    expect((await urls()).every((link) => !link.ready)).toBe(true);
    const ready = await urls();
    expect(ready.length).toBeGreaterThanOrEqual(2);
    expect(ready.every((link) => link.ready && link.status === "completed")).toBe(true);
    expect((await download(ready[0]?.presigned_url ?? "")).status).toBe(200);
  });

  it("download signatures expire; batch tokens expire after their lifetime", async () => {
    const clock = manualClock();
    const { emulator } = await start({
      clock: clock.now,
      batchReadyAfterPolls: 0,
      downloadUrlTtlSeconds: 60,
      batchTokenTtlSeconds: 7200,
      tokenTtlSeconds: 86_400,
    });
    const token = await fetchToken(emulator);
    const created = await post(emulator, "/v2/workloads/batch", { ...logsBody, app_type: "ec2" }, token);
    const batchToken = (created.body["data"] as { token: string }).token;
    const [partition] = (await post(emulator, "/v2/workloads/batch/status", { token: batchToken }, token))
      .body["presigned_urls"] as PartitionRecord[];
    const url = partition?.presigned_url ?? "";
    expect((await download(url.replace(/signature=[^&]+/, "signature=forged"))).status).toBe(403);
    clock.advance(61_000);
    expect((await download(url)).status).toBe(403);
    clock.advance(7200_000);
    const expired = await post(emulator, "/v2/workloads/batch/status", { token: batchToken }, token);
    expect(expired.status).toBe(404);
  });
});
