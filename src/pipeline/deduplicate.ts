// Drops a record already seen in this slice (a scroll that repeats a hit, a retried page, overlapping
// batch partitions), counting it, so nothing is written twice. A record is known by its index and id
// together: the service's ids are unique within an index only, so two documents of two indices with
// one `_id` are two records. The parts of a batch slice share one `seen` set, so a record is dropped
// whichever partition brought it first.
import type { Batch, Row, SliceStats } from "../core/contracts.js";

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

export async function* deduplicateById(
  input: AsyncIterable<Batch>,
  stats: SliceStats,
  seen: Set<string> = new Set<string>(),
): AsyncGenerator<Batch> {
  for await (const batch of input) {
    let kept: Batch = batch;
    let copying = false;
    const out: Batch[number][] = [];
    for (let index = 0; index < batch.length; index++) {
      const row = batch[index] as Batch[number];
      const key = recordKey(row);
      if (key === undefined) {
        if (copying) out.push(row);
        continue;
      }
      if (seen.has(key)) {
        // Copy only once the first duplicate shows up; a clean page passes through untouched.
        if (!copying) {
          copying = true;
          for (let earlier = 0; earlier < index; earlier++) out.push(batch[earlier] as Batch[number]);
        }
        stats.duplicates++;
        continue;
      }
      seen.add(key);
      if (copying) out.push(row);
    }
    if (copying) kept = out;
    if (kept.length > 0) yield kept;
  }
}
