// The deterministic data generator: each stream has, per hour bucket, a count derived from the seed and
// the density; the record at position i of a bucket has a computed timestamp and values, so any record
// is produced directly (O(1) seeking) and a window is never held in memory.
import { KIND_DATA } from "./kind-data.js";
import type { Source } from "./records.js";
import { createRandom, hash32, hashString } from "./random.js";
import type { Stream } from "./streams.js";

export const HOUR_MS = 3_600_000;
/** Records per stream and hour are capped so that a position fits in a safe integer. */
export const MAX_PER_BUCKET = 2 ** 24;

/** Records of a stream in hour bucket `hour` (hours since the epoch): mean `density`, seeded spread. */
export function bucketCount(stream: Stream, density: number, hour: number): number {
  const h = hash32(stream.seed, hour);
  const spread = 0.5 + (h & 0xffff) / 0x10000;
  const fraction = (h >>> 16) / 0x10000;
  return Math.min(MAX_PER_BUCKET - 1, Math.floor(density * spread + fraction));
}

/** Timestamp (ms) of record i of `count` in an hour: evenly spread, non-decreasing in i. */
export function recordTime(hour: number, count: number, i: number): number {
  return hour * HOUR_MS + Math.floor((i * HOUR_MS) / count);
}

/** The first position whose timestamp is at or after `t` (count when none). */
export function firstIndexAtOrAfter(hour: number, count: number, t: number): number {
  const offset = t - hour * HOUR_MS;
  if (offset <= 0) return 0;
  if (offset >= HOUR_MS) return count;
  let i = Math.ceil((offset * count) / HOUR_MS);
  while (i > 0 && recordTime(hour, count, i - 1) >= t) i--;
  while (i < count && recordTime(hour, count, i) < t) i++;
  return i;
}

export function recordId(stream: Stream, hour: number, i: number): string {
  return `${stream.tag}-${hour.toString(36)}-${i.toString(36)}`;
}

/**
 * A record's id when ids are unique within an index only: its scope (not its app type, which names
 * another index), hour of the day and position, so the same ids come back in every daily index and
 * in the index of every app type, while no two records of one index share one.
 */
export function indexRecordId(stream: Stream, hour: number, i: number): string {
  const scope = (hashString(0, `${stream.kind}|${stream.application}|${stream.scope}`) >>> 0).toString(36);
  return `${scope}-${(hour % 24).toString(36)}-${i.toString(36)}`;
}

export function generateSource(stream: Stream, hour: number, i: number, ts: number, id: string): Source {
  const random = createRandom(hash32(hash32(stream.seed, hour), i));
  return KIND_DATA[stream.kind].generate({ random, ts, stream, n: i, id });
}

/** Index name of a stream's records in an hour: `<kind>-<application>-<app_type>-YYYY.MM.DD`. */
export function indexName(stream: Stream, hour: number): string {
  const day = new Date(hour * HOUR_MS).toISOString().slice(0, 10).replaceAll("-", ".");
  return `${stream.kind}-${stream.application}-${stream.appType}-${day}`;
}
