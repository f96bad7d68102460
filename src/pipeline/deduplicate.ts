// Drops a record whose `_id` was already seen in this slice (a scroll that repeats a hit, a retried
// page, overlapping batch partitions), counting it, so nothing is written twice. The parts of a batch
// slice share one `seen` set, so a record is dropped whichever partition brought it first.
import type { Batch, SliceStats } from "./contracts.js";

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
      const id = row._id;
      if (typeof id !== "string") {
        if (copying) out.push(row);
        continue;
      }
      if (seen.has(id)) {
        // Copy only once the first duplicate shows up; a clean page passes through untouched.
        if (!copying) {
          copying = true;
          for (let earlier = 0; earlier < index; earlier++) out.push(batch[earlier] as Batch[number]);
        }
        stats.duplicates++;
        continue;
      }
      seen.add(id);
      if (copying) out.push(row);
    }
    if (copying) kept = out;
    if (kept.length > 0) yield kept;
  }
}
