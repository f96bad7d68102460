// Drops a record already seen in this slice (a scroll that repeats a hit, a retried page, overlapping
// batch partitions), counting it, so nothing is written twice. A record is known by its index and id
// together: the service's ids are unique within an index only, so two documents of two indices with
// one `_id` are two records. The parts of a batch slice share one `seen` set, so a record is dropped
// whichever partition brought it first.
import type { RecordBatch, RecordId, Row, SliceStats } from "../../core/contracts.js";
import { pickRecords, recordCount, recordIdOf } from "../../core/record-batch.js";

/**
 * The records a slice has seen, by `(_index, _id)`: the ids of each index in a set of their own, so no
 * key string is built per record (a joined key per record was 2% of a Parquet export's CPU). A row
 * with no string `_id` (aggregation buckets) is never a record seen.
 */
export class SeenRecords {
  private readonly byIndex = new Map<string, Set<string>>();
  /** The last index looked up: a page's hits mostly share one. */
  private lastIndex: string | undefined;
  private lastIds: Set<string> | undefined;

  /** Adds the row's record; false when it was seen already, or when the row is no record. */
  add(row: Row | RecordId): boolean {
    const id = row._id;
    if (typeof id !== "string") return false;
    const ids = this.idsOf(typeof row._index === "string" ? row._index : "");
    // One lookup, not `has` then `add`: the set grows only by an id it did not hold.
    const size = ids.size;
    return ids.add(id).size > size;
  }

  private idsOf(index: string): Set<string> {
    if (index === this.lastIndex && this.lastIds !== undefined) return this.lastIds;
    let ids = this.byIndex.get(index);
    if (ids === undefined) {
      ids = new Set<string>();
      this.byIndex.set(index, ids);
    }
    this.lastIndex = index;
    this.lastIds = ids;
    return ids;
  }
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
  seen: SeenRecords = new SeenRecords(),
): AsyncGenerator<RecordBatch> {
  for await (const batch of input) {
    const count = recordCount(batch);
    /** Indices of the records kept, once the first duplicate shows up; a clean page is not copied. */
    let kept: number[] | undefined;
    for (let index = 0; index < count; index++) {
      const row = recordIdOf(batch, index) as Row | RecordId;
      if (typeof row._id === "string" && !seen.add(row)) {
        kept ??= Array.from({ length: index }, (_, earlier) => earlier);
        stats.duplicates++;
        continue;
      }
      kept?.push(index);
    }
    if (kept === undefined) {
      if (count > 0) yield batch;
      continue;
    }
    if (kept.length === 0) continue;
    yield pickRecords(batch, kept);
  }
}
