// The sink writing to stdout: records pass straight through, and parallel slices never interleave.
import { PassThrough } from "node:stream";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import type { RecordBatch, Row, RunInfo, SliceContext } from "../src/core/contracts.js";
import { createSilentLogger } from "../src/logger.js";
import { createSink } from "../src/sinks/sink.js";
import { defaultComponents, formatOf } from "../src/components/environment.js";
import { createSinkConfigSchema } from "../src/sinks/sink-config.js";
import { openOutputStore } from "../src/sinks/open-output-store.js";
import { hourSliceContext } from "./support/slice-context.js";

const components = defaultComponents();
const sinkSchema = createSinkConfigSchema(components);

const run: RunInfo = {
  pipelineName: "stdout",
  runId: "run-stdout",
  startedAt: new Date("2026-11-21T06:00:00Z"),
};

function context(hour: number): SliceContext {
  return hourSliceContext(run, new Date(Date.UTC(2026, 10, 21, hour)), { index: hour });
}

async function* slowly(batches: readonly (readonly Row[])[]): AsyncIterable<RecordBatch> {
  for (const rows of batches) {
    await new Promise((resolve) => setImmediate(resolve));
    yield { kind: "rows", rows };
  }
}

function rowsOf(slice: number): Row[] {
  return Array.from({ length: 3000 }, (_, i) => ({ slice, i, text: `line ${i} "q"\n` }));
}

describe("sink to stdout", () => {
  it("writes two slices in parallel as two whole gzip streams that gunzip to every record once", async () => {
    const stdout = new PassThrough();
    const chunks: Buffer[] = [];
    stdout.on("data", (chunk: Buffer) => chunks.push(chunk));
    const config = sinkSchema.parse({ format: "ndjson", gzip: true, to: "-" });
    const store = await openOutputStore(config, { run, stdout }, components.destinations);
    const sink = createSink(config, {
      format: formatOf(components, config),
      store,
      columns: [],
      run,
      log: createSilentLogger(),
    });
    const [a, b] = [rowsOf(0), rowsOf(1)];
    const outputs = await Promise.all([
      sink(slowly([a.slice(0, 1000), a.slice(1000)]), context(0)),
      sink(slowly([b.slice(0, 1000), b.slice(1000)]), context(1)),
    ]);
    await Promise.all(outputs.map((output) => output.commit()));
    // Concatenated gzip members are one valid gzip file; interleaved ones would not decode.
    const lines = gunzipSync(Buffer.concat(chunks)).toString("utf8").trimEnd().split("\n");
    const records = lines.map((line) => JSON.parse(line) as Row);
    expect(records).toHaveLength(6000);
    expect(new Set(records.map((record) => `${String(record.slice)}-${String(record.i)}`)).size).toBe(6000);
    expect(outputs.map((output) => output.rows)).toEqual([3000, 3000]);
  });
});
