// Walks a plan's records in paging order (hour, stream, position) from any position, and counts them.
// A position is ((hourOffset × streams) + stream) × MAX_PER_BUCKET + i: it is what v3 `sort` carries,
// so `search_after` resumes in O(1).
import {
  bucketCount,
  firstIndexAtOrAfter,
  generateSource,
  HOUR_MS,
  indexName,
  MAX_PER_BUCKET,
  indexRecordId,
  recordId,
  recordTime,
} from "./generator.js";
import type { QueryPlan } from "./plan.js";
import { changeRecord } from "./field-changes.js";
import { lateCount } from "./late-records.js";
import type { Stream } from "./streams.js";
import type { Source } from "./records.js";
import { addAwkwardFields, addHitDecoys, isAwkward } from "./awkward-data.js";

export interface EmulatedHit {
  _index: string;
  _id: string;
  _score: number | null;
  _source: Source;
  sort?: [number, number];
}

/** Called per record in the window that passes the filter; return false to stop. */
type Visit = (source: Source, ts: number, position: number, index: string, id: string) => boolean;

/** Records of a stream in an hour: the generated ones plus those ingested late, less those lost. */
function planBucketCount(plan: QueryPlan, stream: Stream, hour: number): number {
  const count =
    bucketCount(stream, plan.density, hour) +
    lateCount(plan.late, plan.kind, hour) -
    lateCount(plan.lost, plan.kind, hour);
  return Math.max(0, Math.min(MAX_PER_BUCKET - 1, count));
}

/**
 * Each bucket from index `first` on with records in the window, in paging order: its index, stream,
 * hour, record count and the window's positions [lo, hi) in it. Return false to stop.
 */
function eachBucket(
  plan: QueryPlan,
  first: number,
  visit: (b: number, stream: Stream, hour: number, count: number, lo: number, hi: number) => boolean,
): void {
  const n = plan.streams.length;
  for (let b = first; b < plan.hours * n; b++) {
    const stream = plan.streams[b % n];
    if (!stream) continue;
    const hour = plan.firstHour + Math.floor(b / n);
    const count = planBucketCount(plan, stream, hour);
    if (count === 0) continue;
    const lo = hour * HOUR_MS < plan.startMs ? firstIndexAtOrAfter(hour, count, plan.startMs) : 0;
    const hi = (hour + 1) * HOUR_MS > plan.endMs ? firstIndexAtOrAfter(hour, count, plan.endMs) : count;
    if (lo < hi && !visit(b, stream, hour, count, lo, hi)) return;
  }
}

export function scan(plan: QueryPlan, after: number, visit: Visit): void {
  const awkward = isAwkward(plan.awkward);
  const first = after + 1;
  const startBucket = Math.floor(first / MAX_PER_BUCKET);
  eachBucket(plan, startBucket, (b, stream, hour, count, windowLo, hi) => {
    const lo = b === startBucket ? Math.max(windowLo, first - b * MAX_PER_BUCKET) : windowLo;
    const index = indexName(stream, hour);
    const base = b * MAX_PER_BUCKET;
    for (let i = lo; i < hi; i++) {
      const ts = recordTime(hour, count, i);
      const id = plan.recordIds === "per_index" ? indexRecordId(stream, hour, i) : recordId(stream, hour, i);
      const source = changeRecord(generateSource(stream, hour, i, ts, id), plan.fieldChanges, id, ts);
      if (awkward) addAwkwardFields(source, stream.kind, stream.appType, id, ts, plan.awkward);
      if (plan.filter && !plan.filter(source)) continue;
      if (!visit(source, ts, base + i, index, id)) return false;
    }
    return true;
  });
}

export interface PlanCount {
  total: number;
  /** Position of the last matching record; -1 when none. */
  lastPosition: number;
}

/** Total matches of a plan: from bucket counts alone without a filter, by scanning with one. */
export function countPlan(plan: QueryPlan): PlanCount {
  let total = 0;
  let lastPosition = -1;
  const counted = (count: number, position: number) => {
    total += count;
    lastPosition = position;
    return true;
  };
  if (plan.filter) scan(plan, -1, (_source, _ts, position) => counted(1, position));
  else
    eachBucket(plan, 0, (b, _stream, _hour, _count, lo, hi) => counted(hi - lo, b * MAX_PER_BUCKET + hi - 1));
  return { total, lastPosition };
}

export interface Page {
  hits: EmulatedHit[];
  /** Position of the last hit; `after` when the page is empty. */
  lastPosition: number;
}

/** The next page of up to `size` hits after position `after` (-1 for the first page). */
export function readPage(plan: QueryPlan, after: number, size: number): Page {
  const hits: EmulatedHit[] = [];
  let lastPosition = after;
  const v3 = plan.hitStyle === "v3";
  scan(plan, after, (source, ts, position, index, id) => {
    const shown = plan.projection ? plan.projection(source) : source;
    const hit: EmulatedHit = v3
      ? { _index: index, _id: id, _score: null, _source: shown, sort: [ts, position] }
      : { _index: index, _id: id, _score: 1, _source: shown };
    addHitDecoys(hit, id, plan.awkward);
    hits.push(hit);
    lastPosition = position;
    return hits.length < size;
  });
  return { hits, lastPosition };
}

/** The plan's hits from the first, a page of up to `size` at a time. */
export function* pages(plan: QueryPlan, size: number): Generator<EmulatedHit[]> {
  for (let after = -1; ;) {
    const page = readPage(plan, after, size);
    if (page.hits.length === 0) return;
    yield page.hits;
    after = page.lastPosition;
  }
}
