// The planner's probe: records per slice, counted by the service with date histograms at the slice's
// own interval, every bucket checked before it is believed. A count the plan, `strategy: auto` and
// `--recheck` act on must be what a query of that slice returns, and nothing the service sends may
// reach the state unless it is a count.
import type { ServiceClient } from "../../api/client.js";
import { ApiError } from "../../errors.js";
import { isJsonObject } from "../../core/json-object.js";
import type { SourceSpec } from "../../kinds/source-spec.js";
import type { DataKindComponent } from "../../kinds/data-kind.js";

/**
 * Buckets asked for in one request. The spec sets no limit, but search engines refuse more than
 * their `search.max_buckets` (10,000 in older releases, 65,536 now): the lower bound is safe
 * everywhere, and a longer window costs one more request per 10,000 slices.
 */
export const MAX_PROBE_BUCKETS = 10_000;

const AGGREGATION_NAME = "per_slice";
const UNITS = [
  ["d", 86_400_000],
  ["h", 3_600_000],
  ["m", 60_000],
  ["s", 1_000],
] as const;

export interface ProbedCounts {
  /** Records per bucket, by the bucket's start (ms); buckets without records may be absent. */
  counts: Map<number, number>;
  /** The histogram's interval: every slice is a whole number of buckets. */
  intervalMs: number;
  requests: number;
}

/**
 * The histogram interval for slices of `sliceMs`, in the largest unit that divides it (`15m`, `1h`,
 * `7d` for a week: fixed intervals have no weeks). Slices are aligned to multiples of their length
 * since the epoch, as fixed-interval buckets are, so one bucket is exactly one slice.
 * @example fixedInterval(900_000) // "15m"
 */
export function fixedInterval(sliceMs: number): string {
  for (const [unit, ms] of UNITS) if (sliceMs % ms === 0) return `${sliceMs / ms}${unit}`;
  return `${sliceMs}ms`;
}

function show(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/**
 * The buckets of one histogram answer, checked: a key that is a time in `[from, to)` on the
 * interval's grid, and a `doc_count` that is a non-negative safe integer. Anything else is the
 * service's fault and stops the plan before a count is used or stored.
 */
export function readHistogram(
  aggregations: unknown,
  range: { from: number; to: number; intervalMs: number },
  operation: string,
): [number, number][] {
  const fail = (what: string): never => {
    throw new ApiError(
      `${operation}: the service's date histogram ${what}; the counts cannot be trusted, so nothing was planned or recorded (report it to the service's operators)`,
      { operation, retryable: false },
    );
  };
  const histogram = isJsonObject(aggregations) ? aggregations[AGGREGATION_NAME] : undefined;
  const buckets = isJsonObject(histogram) ? histogram["buckets"] : undefined;
  if (!Array.isArray(buckets)) return fail(`has no "${AGGREGATION_NAME}.buckets" array`);
  const first = Math.floor(range.from / range.intervalMs) * range.intervalMs;
  const seen = new Set<number>();
  return buckets.map((bucket: unknown, index): [number, number] => {
    if (!isJsonObject(bucket)) return fail(`bucket ${index} is ${show(bucket)}, not an object`);
    const { key, doc_count: count } = bucket;
    if (typeof key !== "number" || !Number.isSafeInteger(key) || key < first || key >= range.to)
      return fail(
        `bucket ${index} has key ${show(key)}, not a time in the window (${new Date(first).toISOString()} to ${new Date(range.to).toISOString()}, in milliseconds)`,
      );
    if ((key - first) % range.intervalMs !== 0)
      return fail(
        `bucket ${index} has key ${new Date(key).toISOString()}, not on the ${fixedInterval(range.intervalMs)} grid asked for`,
      );
    if (seen.has(key)) return fail(`has bucket ${new Date(key).toISOString()} twice`);
    seen.add(key);
    if (typeof count !== "number" || !Number.isSafeInteger(count) || count < 0)
      return fail(`bucket ${index} has doc_count ${show(count)}, not a whole number of 0 or more`);
    return [key, count];
  });
}

/**
 * Counts the records of `[start, end)` per `intervalMs` with one date histogram per request set and
 * per `MAX_PROBE_BUCKETS` buckets; undefined when the kind cannot be probed.
 */
export async function probeCounts(
  client: ServiceClient,
  query: SourceSpec,
  kind: DataKindComponent,
  window: { start: Date; end: Date; intervalMs: number },
  signal?: AbortSignal,
): Promise<ProbedCounts | undefined> {
  const aggregation = kind.aggregation;
  // A source without aggregations (v1 logs and billing) cannot be probed.
  if (aggregation === undefined || !kind.strategies(query.api).includes("aggs")) return undefined;
  const { intervalMs } = window;
  const interval = fixedInterval(intervalMs);
  const aggs = { [AGGREGATION_NAME]: { date_histogram: { field: "@timestamp", fixed_interval: interval } } };
  const operation = `${query.kind} aggs (the plan's date histogram)`;
  const counts = new Map<number, number>();
  let requests = 0;
  const end = window.end.getTime();
  for (let from = window.start.getTime(); from < end;) {
    const to = Math.min(end, (Math.floor(from / intervalMs) + MAX_PROBE_BUCKETS) * intervalMs);
    const bounds = { start_time: new Date(from).toISOString(), end_time: new Date(to).toISOString() };
    for (const appType of aggregation.sets(query)) {
      const answer = await aggregation.send(client, query, { aggs, bounds, appType, signal });
      requests++;
      for (const [key, count] of readHistogram(answer, { from, to, intervalMs }, operation)) {
        const sum = (counts.get(key) ?? 0) + count;
        if (!Number.isSafeInteger(sum))
          throw new ApiError(
            `${operation}: the counts of ${new Date(key).toISOString()} add up past a safe integer`,
            { operation, retryable: false },
          );
        counts.set(key, sum);
      }
    }
    from = to;
  }
  return { counts, intervalMs, requests };
}
