// The emulator's data changes at run time: a field added, removed or retyped shows in the mappings
// and in every record; late records raise the counts of the hours they fall in and nothing else.
import { afterEach, describe, expect, it } from "vitest";
import { request } from "undici";
import { startEmulator } from "../src/emulator/server.js";
import type { RunningEmulator } from "../src/emulator/server.js";
import { fetchToken, post } from "./emulator-http.js";

let emulator: RunningEmulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

const scope = { application: "atr", app_type: ["kubernetes"], domain: ["*"] };
const window = { start_time: "2026-03-01T00:00:00Z", end_time: "2026-03-01T04:00:00Z" };

async function hourlyCounts(running: RunningEmulator, token: string): Promise<number[]> {
  const answer = await post(
    running,
    "/v3/jobs/aggs",
    {
      ...scope,
      ...window,
      aggs: { h: { date_histogram: { field: "@timestamp", calendar_interval: "hour" } } },
    },
    token,
  );
  const buckets = (answer.body["data"] as { aggregations: { h: { buckets: { doc_count: number }[] } } })
    .aggregations.h.buckets;
  return buckets.map((bucket) => bucket.doc_count);
}

async function control(
  running: RunningEmulator,
  action: string,
  body: unknown,
): Promise<{ status: number; text: string }> {
  const response = await request(`${running.url}/_emulator/${action}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.statusCode, text: await response.body.text() };
}

describe("emulator data changes", () => {
  it("shows a changed field in the mappings and in every record", async () => {
    emulator = await startEmulator({ seed: 5, density: 6 });
    const token = await fetchToken(emulator);
    emulator.changeFields("jobs", {
      add: { "job.priority": "integer" },
      remove: ["workflow.id"],
      retype: { "job.execution_time.elapsed": "keyword" },
    });
    const mappings = await post(emulator, "/v3/jobs/mappings", {}, token);
    const fields = (mappings.body["data"] as { fields: { name: string; type: string }[] }).fields;
    expect(fields).toContainEqual({ name: "job.priority", type: "integer" });
    expect(fields).toContainEqual({ name: "job.execution_time.elapsed", type: "keyword" });
    expect(fields.map((field) => field.name)).not.toContain("workflow.id");
    const page = await post(emulator, "/v3/jobs/query", { ...scope, ...window, size: 50 }, token);
    const hits = (
      page.body["data"] as {
        hits: { _source: { job: Record<string, unknown>; workflow: Record<string, unknown> } }[];
      }
    ).hits;
    expect(hits.length).toBeGreaterThan(0);
    for (const hit of hits) {
      expect(Number.isInteger(hit._source.job["priority"])).toBe(true);
      expect(hit._source.workflow).not.toHaveProperty("id");
      const elapsed = (hit._source.job["execution_time"] as Record<string, unknown>)["elapsed"];
      expect(elapsed === null || typeof elapsed === "string").toBe(true);
    }
    // The computed expectation agrees with what the service pages out.
    const expected = [];
    for await (const hit of emulator.expectedHits("jobs", { ...scope, ...window, size: 50 }))
      expected.push(hit);
    expect(expected.slice(0, hits.length).map((hit) => hit._source)).toEqual(hits.map((hit) => hit._source));
  });

  it("adds late records to the hours a range touches, over the control interface", async () => {
    emulator = await startEmulator({ seed: 5, density: 6, control: true });
    const token = await fetchToken(emulator);
    const before = await hourlyCounts(emulator, token);
    const streams = 3; // kubernetes × the three default domains
    const added = await control(emulator, "late-records", {
      kind: "jobs",
      start: "2026-03-01T02:10:00Z",
      end: "2026-03-01T02:20:00Z",
      count: 4,
    });
    expect(added.status).toBe(200);
    const after = await hourlyCounts(emulator, token);
    expect(after).toEqual(before.map((count, hour) => (hour === 2 ? count + 4 * streams : count)));
    expect(emulator.expectedCount("jobs", { ...scope, ...window })).toBe(after.reduce((a, b) => a + b, 0));
    const refused = await control(emulator, "late-records", { kind: "jobs", start: "x", end: "y", count: 1 });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('start \\"x\\" is not a time');
    const fields = await control(emulator, "fields", { kind: "jobs", add: { "job.priority": "integr" } });
    expect(fields.status).toBe(400);
    expect(fields.text).toContain("add.job.priority");
  });

  it("lists raw mapping entries given over the control interface: a field twice, an unknown type", async () => {
    emulator = await startEmulator({ seed: 5, density: 6, control: true });
    const token = await fetchToken(emulator);
    const changed = await control(emulator, "fields", {
      kind: "jobs",
      mappings: [
        { name: "job.state", type: "long" },
        { name: "weird", type: "constructor" },
      ],
    });
    expect(changed.status, changed.text).toBe(200);
    const mappings = await post(emulator, "/v3/jobs/mappings", {}, token);
    const fields = (mappings.body["data"] as { fields: { name: string; type: string }[] }).fields;
    expect(fields.filter((field) => field.name === "job.state")).toEqual([
      { name: "job.state", type: "keyword" },
      { name: "job.state", type: "long" },
    ]);
    expect(fields).toContainEqual({ name: "weird", type: "constructor" });
  });

  it("loses records from the hours a range touches, never below none, over the control interface", async () => {
    emulator = await startEmulator({ seed: 5, density: 6, control: true });
    const token = await fetchToken(emulator);
    const before = await hourlyCounts(emulator, token);
    const streams = 3;
    const lost = await control(emulator, "lost-records", {
      kind: "jobs",
      start: "2026-03-01T01:00:00Z",
      end: "2026-03-01T01:30:00Z",
      count: 1,
    });
    expect(lost.status).toBe(200);
    emulator.loseRecords({
      kind: "jobs",
      start: "2026-03-01T03:00:00Z",
      end: "2026-03-01T04:00:00Z",
      count: 10_000,
    });
    const after = await hourlyCounts(emulator, token);
    // The emptied last hour has no bucket: a histogram ends at the last record.
    expect(after).toEqual(before.slice(0, 3).map((count, hour) => (hour === 1 ? count - streams : count)));
    expect(emulator.expectedCount("jobs", { ...scope, ...window })).toBe(after.reduce((a, b) => a + b, 0));
  });

  it("leaves out records past the indexing horizon until it moves, over the control interface", async () => {
    emulator = await startEmulator({ seed: 5, density: 6, control: true });
    const token = await fetchToken(emulator);
    const all = await hourlyCounts(emulator, token);
    const cut = "2026-03-01T02:00:00Z";
    expect((await control(emulator, "indexed-until", { until: cut })).status).toBe(200);
    const held = await post(emulator, "/v3/jobs/query", { ...scope, ...window, size: 10_000 }, token);
    const hits = (held.body["data"] as { hits: { _source: { "@timestamp": string } }[] }).hits;
    expect(hits.length).toBe((all[0] ?? 0) + (all[1] ?? 0));
    expect(hits.every((hit) => Date.parse(hit._source["@timestamp"]) < Date.parse(cut))).toBe(true);
    expect((await hourlyCounts(emulator, token)).slice(0, 2)).toEqual(all.slice(0, 2));
    expect((await control(emulator, "indexed-until", { until: null })).status).toBe(200);
    expect(await hourlyCounts(emulator, token)).toEqual(all);
    const refused = await control(emulator, "indexed-until", { until: "later" });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('indexed until \\"later\\" is not a time');
  });

  it("serves no control interface unless asked", async () => {
    emulator = await startEmulator({ seed: 5, density: 6 });
    const answer = await control(emulator, "late-records", { kind: "jobs", start: 0, end: 1, count: 1 });
    expect(answer.status).toBe(404);
  });
});
