// The planner: cuts the window into slices, probes how many records each holds (one date histogram
// over the whole window at the slice's grain), picks the retrieval style per slice, tells which
// slices are still open (after `now − settle`), and estimates the requests against the quota left.
import type { ServiceClient } from "../../api/client.js";
import type { Slice } from "../../core/contracts.js";
import type { Retrieval } from "../../kinds/data-kind.js";
import type { SourceSpec } from "../../kinds/source-spec.js";
import { sliceWindow } from "../../config/window.js";
import type { Window } from "../../config/window-schema.js";
import { probeCounts } from "./probe-counts.js";
import type { ProbedCounts } from "./probe-counts.js";
import type { KindTable } from "../../components/registry.js";
import type { DataKindComponent } from "../../kinds/data-kind.js";

export interface SlicePlan {
  slice: Slice;
  retrieval: Retrieval;
  /** Records the probe counted in the slice; undefined without a probe. */
  expected: number | undefined;
  /** Requests the slice is expected to cost. */
  requests: number;
  /**
   * The slice ends after `now − settle`: the service may still be indexing it, so it is written but
   * recorded as open, and redone by the next run until it has settled.
   */
  open: boolean;
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

function retrievalFor(source: SourceSpec, kind: DataKindComponent, expected: number | undefined): Retrieval {
  if (source.strategy === "aggs" || source.strategy === "batch") return source.strategy;
  const offersBatch = kind.sources(source.api).batch !== undefined;
  if (source.strategy === "auto" && offersBatch && expected !== undefined && expected > kind.pagingLimit)
    return "batch";
  return kind.paging;
}

function requestsFor(
  query: SourceSpec,
  kind: DataKindComponent,
  retrieval: Retrieval,
  expected: number | undefined,
): number {
  const sets = Math.max(1, kind.aggregation?.sets(query).length ?? 1);
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

/** Records of a slice: the buckets that overlap it (a clipped slice lies inside one bucket). */
function sumCounts(probe: ProbedCounts, start: Date, end: Date): number {
  let sum = 0;
  for (const [key, count] of probe.counts)
    if (key + probe.intervalMs > start.getTime() && key < end.getTime()) sum += count;
  return sum;
}

/**
 * The automatic slice lengths that keep each slice inside one unit of the paths' partition grid
 * (`{hour}`, `{date}`): a file is named after its slice's start, so no slice may cross that unit.
 */
export function autoSliceLengths(partitionMs: number | undefined): number[] {
  if (partitionMs === undefined) return AUTO_SLICE_MS;
  const lengths = AUTO_SLICE_MS.filter((length) => length <= partitionMs && partitionMs % length === 0);
  return lengths.length > 0 ? lengths : [partitionMs];
}

/** The longest automatic slice length under which no slice exceeds the paging limit. */
export function chooseSliceMs(
  probe: ProbedCounts,
  start: Date,
  end: Date,
  limit: number,
  partitionMs?: number,
): number {
  const lengths = autoSliceLengths(partitionMs);
  for (const length of lengths) {
    let fits = true;
    for (let at = start.getTime(); at < end.getTime() && fits; at += length) {
      fits = sumCounts(probe, new Date(at), new Date(Math.min(at + length, end.getTime()))) <= limit;
    }
    if (fits) return length;
  }
  return lengths.at(-1) ?? HOUR_MS;
}

/** The retrieval and request estimate of one slice, from its count when the probe gave one. */
export function planSlice(
  query: SourceSpec,
  kind: DataKindComponent,
  slice: Slice,
  expected: number | undefined,
): Omit<SlicePlan, "open"> {
  const retrieval = retrievalFor(query, kind, expected);
  return { slice, retrieval, expected, requests: requestsFor(query, kind, retrieval, expected) };
}

interface PlanOptions {
  client: ServiceClient;
  query: SourceSpec;
  /** The environment's data kinds: the query's kind says how it is retrieved and probed. */
  kinds: KindTable;
  /** The window to plan; `slice: auto` keeps to its `partition_ms` (the paths' `{hour}` or `{date}`). */
  window: Omit<Window, "expression">;
  /** Probe even when strategy and slice are fixed (`plan` shows the counts). */
  alwaysProbe?: boolean;
  /**
   * This machine's clock. A slice is settled only once it ended `settle` before both the run's now
   * and this clock: a `--now` a little ahead (the CLI refuses more than minutes) settles nothing the
   * service cannot have indexed yet. Default: the real clock.
   */
  wallClock?: () => Date;
  signal?: AbortSignal;
}

/**
 * Whether the window is one rolling snapshot: a v1 time_range (billing, the deprecated logs API) is
 * one request up to the service's now, so it is one slice whose start moves with the day. Each run's
 * slice replaces the one the output holds instead of being added beside it (see state-snapshot.ts).
 */
export function isSnapshotWindow(query: Pick<SourceSpec, "api">): boolean {
  return query.api === "v1";
}

/**
 * The instant a slice must end by to be settled: `settle` before both the run's now and this
 * machine's clock, so a `--now` a little ahead settles nothing the service cannot have indexed yet.
 */
export function settledUntil(now: Date, settleMs: number, wallClock: () => Date = () => new Date()): number {
  return Math.min(now.getTime(), wallClock().getTime()) - settleMs;
}

/** Plans a run. Costs at most one probe per request set, and none when strategy and slice are fixed. */
export async function planRun(options: PlanOptions): Promise<Plan> {
  const { client, query, window } = options;
  const kind = options.kinds[query.kind];
  // v1 (billing and the deprecated logs API) takes a date-math time_range: the window is one request.
  const single = isSnapshotWindow(query);
  const needsProbe =
    !single &&
    query.strategy !== "aggs" &&
    (options.alwaysProbe === true || query.strategy === "auto" || window.slice_ms === "auto");
  // Counted at the slice's own grain; `slice: auto` picks among whole hours, so hours suffice there.
  const intervalMs = window.slice_ms === "auto" ? HOUR_MS : window.slice_ms;
  const probe = needsProbe
    ? await probeCounts(
        client,
        query,
        kind,
        { start: window.start, end: window.end, intervalMs },
        options.signal,
      )
    : undefined;
  const sliceMs = single
    ? window.end.getTime() - window.start.getTime()
    : window.slice_ms !== "auto"
      ? window.slice_ms
      : probe !== undefined
        ? chooseSliceMs(probe, window.start, window.end, kind.pagingLimit, window.partition_ms)
        : (autoSliceLengths(window.partition_ms)[0] ?? HOUR_MS);
  const cut = sliceWindow(window.start, window.end, sliceMs);
  // A snapshot is one slice over the whole window, under the id its cut gives.
  const slices: Slice[] = single
    ? [{ index: 0, id: cut[0]?.id ?? "window", start: window.start, end: window.end }]
    : cut;
  // A v1 time_range is resolved by the service against its own clock, so its last minutes cannot be
  // held back: settle does not apply. Its end moves with every run, so every run redoes it anyway.
  const settledBefore = single
    ? Number.POSITIVE_INFINITY
    : settledUntil(window.now, window.settle_ms, options.wallClock);
  const planned = slices.map((slice): SlicePlan => {
    const expected = probe === undefined ? undefined : sumCounts(probe, slice.start, slice.end);
    return { ...planSlice(query, kind, slice, expected), open: slice.end.getTime() > settledBefore };
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
