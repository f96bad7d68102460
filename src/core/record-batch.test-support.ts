// For tests: the rows of a batch that must be one of parsed rows, failing the test otherwise.
import type { RecordBatch, Row, RowsBatch } from "./record-batch.js";

export function rowsBatch(batch: RecordBatch | undefined): RowsBatch {
  if (batch?.kind !== "rows") throw new Error(`expected a batch of rows, got ${batch?.kind ?? "none"}`);
  return batch;
}

export function rowsOf(batch: RecordBatch | undefined): readonly Row[] {
  return rowsBatch(batch).rows;
}
