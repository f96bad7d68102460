// Lifts a per-row function to a transform over batches: one output batch per input batch, no buffering.
import type { RecordBatch, Row, SliceContext, Transform } from "../core/contracts.js";
import { EtlError } from "../errors.js";

/** A row mapper; returning undefined drops the row (how `filter` keeps only matches). */
type RowMapper = (row: Row, ctx: SliceContext) => Row | undefined;

/**
 * @example const upper = mapRows((row) => ({ ...row, name: String(row.name).toUpperCase() }));
 */
export function mapRows(mapper: RowMapper): Transform {
  return async function* mapped(
    input: AsyncIterable<RecordBatch>,
    ctx: SliceContext,
  ): AsyncIterable<RecordBatch> {
    for await (const batch of input) {
      // A source delivers lines or columns only to a slice without transforms and renaming.
      if (batch.kind !== "rows")
        throw new EtlError("INTERNAL", `a transform was handed a batch of ${batch.kind}; it maps rows`);
      const out: Row[] = [];
      for (const row of batch.rows) {
        const next = mapper(row, ctx);
        if (next !== undefined) out.push(next);
      }
      // An emptied batch still flows, so sinks and counters see every page. The rows' JSON is dropped
      // on purpose: a mapper may have changed any row, so the source's bytes no longer describe it.
      yield { kind: "rows", rows: out };
    }
  };
}
