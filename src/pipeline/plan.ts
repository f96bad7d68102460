// The planner: cuts the window into slices, probes how many records each holds (one date histogram
// over the whole window), picks the retrieval style per slice, and estimates the requests the run
// will cost against the quota left.
import type { ServiceClient } from "../api/client.js";
import type { Slice } from "./contracts.js";
import type { Retrieval } from "../kinds/data-kind.js";
import type { SourceSpec } from "../kinds/source-spec.js";
import { KINDS } from "./registry.js";

export interface SlicePlan {
  slice: Slice;
  retrieval: Retrieval;
  /** Records the probe counted in the slice; undefined without a probe. */
  expected: number | undefined;
  /** Requests the slice is expected to cost. */
  requests: number;
}

export interface Plan {
  slices: SlicePlan[];
  expectedRecords: number | undefined;
  /** Requests spent planning (mappings, probes). */
  probeRequests: number;
  estimatedRequests: number;
  quotaRemaining: number | undefined;
}

const HOUR_MS = 3_600_000;
/** Slice lengths `slice: auto` picks from, longest first. */
const AUTO_SLICE_MS = [24 * HOUR_MS, 6 * HOUR_MS, HOUR_MS];
/** Status polls a batch export is expected to need. */
const BATCH_POLLS = 2;

/** Whether a source can be probed with an aggregation (v1 logs and billing cannot). */
export function canProbe(source: SourceSpec): boolean {
  const kind = KINDS[source.kind];
  return kind.aggregation !== undefined && kind.strategies(source.api).includes("aggs");
}

function retrievalFor(source: SourceSpec, expected: number | undefined): Retrieval {
  const kind = KINDS[source.kind];
  if (source.strategy === "aggs" || source.strategy === "batch") return source.strategy;
  const offersBatch = kind.sources(source.api).batch !== undefined;
  if (source.strategy === "auto" && offersBatch && expected !== undefined && expected > kind.pagingLimit)
    return "batch";
  return kind.paging;
}

function requestSets(source: SourceSpec): number {
  return KINDS[source.kind].aggregation?.sets(source).length ?? 1;
}

function requestsFor(query: SourceSpec, retrieval: Retrieval, expected: number | undefined): number {
  const sets = Math.max(1, requestSets(query));
  switch (retrieval) {
    case "billing":
      return query.domain?.length ?? 1;
    case "aggs":
      return sets;
    case "batch":
      return sets * (1 + BATCH_POLLS);
    default:
      // One request per page; an empty result still costs one.
      return Math.max(sets, Math.ceil((expected ?? query.page_size) / query.page_size));
  }
}

/** Counts per hour over the window with one aggregation per request set; undefined if not probeable. */
export async function probeHourlyCounts(
  client: ServiceClient,
  query: SourceSpec,
  start: Date,
  end: Date,
  signal?: AbortSignal,
): Promise<{ counts: Map<number, number>; requests: number } | undefined> {
  const aggregation = KINDS[query.kind].aggregation;
  if (aggregation === undefined || !canProbe(query)) return undefined;
  const aggs = { per_hour: { date_histogram: { field: "@timestamp", fixed_interval: "1h" } } };
  const bounds = { start_time: start.toISOString(), end_time: end.toISOString() };
  const counts = new Map<number, number>();
  const sets = aggregation.sets(query);
  for (const appType of sets) {
    const aggregations = await aggregation.send(client, query, { aggs, bounds, appType, signal });
    const buckets = (aggregations as { per_hour?: { buckets?: { key: number; doc_count: number }[] } })
      .per_hour?.buckets;
    for (const bucket of buckets ?? [])
      counts.set(bucket.key, (counts.get(bucket.key) ?? 0) + bucket.doc_count);
  }
  return { counts, requests: sets.length };
}

function sumCounts(counts: Map<number, number>, start: Date, end: Date): number {
  let sum = 0;
  for (const [key, count] of counts) if (key >= start.getTime() && key < end.getTime()) sum += count;
  return sum;
}

/** The longest automatic slice length under which no slice exceeds the paging limit. */
export function chooseSliceMs(counts: Map<number, number>, start: Date, end: Date, limit: number): number {
  for (const length of AUTO_SLICE_MS) {
    let fits = true;
    for (let at = start.getTime(); at < end.getTime() && fits; at += length) {
      fits = sumCounts(counts, new Date(at), new Date(Math.min(at + length, end.getTime()))) <= limit;
    }
    if (fits) return length;
  }
  return HOUR_MS;
}

export interface PlanOptions {
  client: ServiceClient;
  query: SourceSpec;
  window: { start: Date; end: Date; slice_ms: number | "auto" };
  /** Cuts `[start, end)` into slices of `sliceMs` (config/ owns the naming). */
  sliceWindow(start: Date, end: Date, sliceMs: number): Slice[];
  /** Probe even when strategy and slice are fixed (`plan` shows the counts). */
  alwaysProbe?: boolean;
  signal?: AbortSignal;
}

/** Plans a run. Costs at most one probe per request set, and none when strategy and slice are fixed. */
export async function planRun(options: PlanOptions): Promise<Plan> {
  const { client, query, window } = options;
  // v1 (billing and the deprecated logs API) takes a date-math time_range: the window is one request.
  const single = query.api === "v1";
  const needsProbe =
    !single &&
    query.strategy !== "aggs" &&
    (options.alwaysProbe === true || query.strategy === "auto" || window.slice_ms === "auto");
  const probe = needsProbe
    ? await probeHourlyCounts(client, query, window.start, window.end, options.signal)
    : undefined;
  let slices: Slice[];
  if (single) {
    slices = [
      {
        index: 0,
        id:
          options.sliceWindow(window.start, window.end, window.end.getTime() - window.start.getTime())[0]
            ?.id ?? "window",
        start: window.start,
        end: window.end,
      },
    ];
  } else {
    const sliceMs =
      window.slice_ms !== "auto"
        ? window.slice_ms
        : probe !== undefined
          ? chooseSliceMs(probe.counts, window.start, window.end, KINDS[query.kind].pagingLimit)
          : 24 * HOUR_MS;
    slices = options.sliceWindow(window.start, window.end, sliceMs);
  }
  const planned = slices.map((slice): SlicePlan => {
    const expected = probe === undefined ? undefined : sumCounts(probe.counts, slice.start, slice.end);
    const retrieval = retrievalFor(query, expected);
    return { slice, retrieval, expected, requests: requestsFor(query, retrieval, expected) };
  });
  const expectedRecords =
    probe === undefined || query.strategy === "aggs"
      ? undefined
      : planned.reduce((sum, s) => sum + (s.expected ?? 0), 0);
  const probeRequests = probe?.requests ?? 0;
  return {
    slices: planned,
    expectedRecords,
    probeRequests,
    estimatedRequests: planned.reduce((sum, s) => sum + s.requests, 0),
    quotaRemaining: client.quota.snapshot().remaining,
  };
}
