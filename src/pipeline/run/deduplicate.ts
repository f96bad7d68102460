// Drops a record already seen in this slice (a scroll that repeats a hit, a retried page, overlapping
// batch partitions), counting it, so nothing is written twice. A record is known by its index and id
// together: the service's ids are unique within an index only, so two documents of two indices with
// one `_id` are two records. The parts of a batch slice share one `seen` set, so a record is dropped
// whichever partition brought it first.
import type { RecordBatch, Row, SliceStats } from "../../core/contracts.js";

/**
 * The key a record is de-duplicated by: `(_index, _id)`, the index prefixed by its length so no two
 * pairs share a key; undefined for a row with no string `_id` (aggregation buckets).
 * @example recordKey({ _index: "jobs-2026.11", _id: "a" }) // "12:jobs-2026.11\u0000a"
 */
export function recordKey(row: Row): string | undefined {
  const id = row._id;
  if (typeof id !== "string") return undefined;
  const index = typeof row._index === "string" ? row._index : "";
  return `${index.length}:${index}\u0000${id}`;
}

/**
 * Drops the rows whose record this slice already saw. A batch with nothing to drop passes through
 * untouched; otherwise the kept rows go on with their JSON, in step, so an NDJSON output still copies
 * their bytes.
 * @example for await (const batch of deduplicateById(source(ctx), ctx.stats)) write(batch);
 */
export async function* deduplicateById(
  input: AsyncIterable<RecordBatch>,
  stats: SliceStats,
  seen: Set<string> = new Set<string>(),
): AsyncGenerator<RecordBatch> {
  for await (const batch of input) {
    const { rows, json } = batch;
    /** Indices of the rows kept, once the first duplicate shows up; a clean page is not copied. */
    let kept: number[] | undefined;
    for (let index = 0; index < rows.length; index++) {
      const key = recordKey(rows[index] as Row);
      if (key === undefined) {
        kept?.push(index);
        continue;
      }
      if (seen.has(key)) {
        kept ??= Array.from({ length: index }, (_, earlier) => earlier);
        stats.duplicates++;
        continue;
      }
      seen.add(key);
      kept?.push(index);
    }
    if (kept === undefined) {
      if (rows.length > 0) yield batch;
      continue;
    }
    if (kept.length === 0) continue;
    const keptRows = kept.map((index) => rows[index] as Row);
    yield json === undefined
      ? { rows: keptRows }
      : { rows: keptRows, json: kept.map((index) => json[index]) };
  }
}
