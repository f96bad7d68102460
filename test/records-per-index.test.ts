// A search engine's `_id` is unique within an index only: the emulator serves jobs whose ec2 and
// kubernetes indices (and every day's index) reuse the same ids, and an export holds every record once
// by `(_index, _id)` — none dropped as a duplicate of another index's, none counted twice.
import { join } from "node:path";
import { describe, expect } from "vitest";
import { jobsPitSource } from "./support/jobs-pipeline.js";
import { readManifest } from "./support/read-output.js";
import { readNdjsonRecords, runCli, SERVICE_FROM_ENV, writePipeline } from "./support/cli-harness.js";
import { useEmulator } from "./support/use-emulator.js";

const START = "2026-03-10T00:00:00Z";
const END = "2026-03-10T04:00:00Z";

const it = useEmulator({ density: 6, recordIds: "per_index" });

const key = (row: { _index?: unknown; _id?: unknown }): string => `${String(row._index)} ${String(row._id)}`;

describe("records of two indices with one _id", () => {
  it("are two records: all exported once, the count reconciled", async ({ service, workspace }) => {
    const truth: string[] = [];
    for await (const hit of service.emulator.expectedHits("/v3/jobs/query", {
      application: "atr",
      app_type: ["ec2", "kubernetes"],
      domain: ["*"],
      start_time: START,
      end_time: END,
    }))
      truth.push(key(hit));
    // The premise: (_index, _id) is unique, _id alone is not.
    expect(new Set(truth).size).toBe(truth.length);
    const ids = new Set(truth.map((entry) => entry.split(" ")[1]));
    expect(ids.size).toBeLessThan(truth.length);

    const out = join(workspace.dir, "out");
    const file = await writePipeline(workspace.dir, {
      name: "per-index",
      service: SERVICE_FROM_ENV,
      source: jobsPitSource(START, END, 40),
      sinks: [{ format: "ndjson", to: out, path: "part-{slice}-{seq}.{ext}" }],
    });
    const result = await runCli(["run", file], { env: service.env });
    expect(result.code, result.stderr).toBe(0);
    const written = (await readNdjsonRecords(out)).map(key);
    expect(written).toHaveLength(truth.length);
    expect(new Set(written)).toEqual(new Set(truth));
    const manifest = await readManifest(out);
    expect(manifest.totals.rows).toBe(truth.length);
    expect(manifest.totals.expected).toBe(truth.length);
    for (const slice of manifest.slices) {
      expect(slice.duplicates).toBe(0);
      expect(slice.written).toBe(slice.expected);
    }
  });
});
