// Test support: runs a transform over given batches with a fixed slice and run, collecting the output.
import type { RecordBatch, Row, SliceContext, Transform } from "../core/contracts.js";
import type { Logger } from "../logger.js";
import { rowsOf } from "../core/record-batch.test-support.js";

const RUN = {
  pipelineName: "nightly-jobs",
  runId: "run-1",
  startedAt: new Date("2026-11-21T03:00:00Z"),
};

export function sliceContext(): SliceContext {
  return {
    signal: new AbortController().signal,
    log: {} as Logger,
    slice: {
      index: 0,
      id: "20261120T000000Z",
      start: new Date("2026-11-20T00:00:00Z"),
      end: new Date("2026-11-20T01:00:00Z"),
    },
    run: RUN,
    stats: { duplicates: 0 },
  };
}

async function* from(batches: readonly RecordBatch[]): AsyncIterable<RecordBatch> {
  yield* batches;
}

export async function runTransform(transform: Transform, batches: readonly RecordBatch[]): Promise<Row[][]> {
  const out: Row[][] = [];
  for await (const batch of transform(from(batches), sliceContext())) out.push([...rowsOf(batch)]);
  return out;
}

/** Runs one batch and returns its rows. */
export async function runRows(transform: Transform, rows: readonly Row[]): Promise<Row[]> {
  const [batch = []] = await runTransform(transform, [{ kind: "rows", rows }]);
  return batch;
}
