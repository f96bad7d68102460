// How long `plan` says the run will take: the wire sets the pace. Each slice sends its requests one
// after the other (a page's cursor comes with the page), `limits.concurrency` slices run at once, and
// each request costs about the quickest round trip `plan` measured on its own requests (the mappings
// and the histogram probe; the slower of the two also paid for a connection or a cold start). Encoding sets a floor: no run goes faster than the records/s the benchmark measured.

/**
 * Records per second a run never beats, whatever the service: `npm run bench` (bench/RESULTS.md,
 * docs/performance.md) at the defaults (page_size 1000, 4 slices at once, 50–70 ms per request, 2
 * cores) measured 27,000–33,000 records/s into Parquet and 38,000–56,000 into NDJSON; the floor takes
 * the slower format, rounded down.
 */
export const PLANNING_RATE_RECORDS_PER_S = 25_000;

/**
 * Round trips a run spends before its first slice: the access token, then the mappings and the
 * histogram probe, which are sent together.
 */
export const STARTUP_ROUND_TRIPS = 2;

interface RunTimeInput {
  /** Requests of each slice to run, in the order the run takes them. */
  sliceRequests: readonly number[];
  /** Slices at once (`limits.concurrency`). */
  concurrency: number;
  /** The quickest round trip `plan` measured; undefined when it measured none. */
  latencyMs: number | undefined;
  /** Records expected in all, when the probe counted them. */
  records: number | undefined;
}

export interface RunTimeEstimate {
  seconds: number;
  /** What bounds it: the service's round trips, or encoding at the planning rate. */
  boundBy: "latency" | "encoding";
  /** Round trips one after the other: the longest of the `concurrency` lanes, plus the start. */
  roundTrips: number;
}

/**
 * The slices dealt to `concurrency` lanes as the runner deals them (each to the lane free first), in
 * requests: the longest lane is what the run waits for, which is the total divided by the concurrency
 * when the slices are even, and more when a few large slices dominate.
 */
function longestLane(sliceRequests: readonly number[], concurrency: number): number {
  const lanes = new Array<number>(Math.max(1, Math.min(concurrency, sliceRequests.length))).fill(0);
  for (const requests of sliceRequests) {
    let free = 0;
    for (let lane = 1; lane < lanes.length; lane++) if ((lanes[lane] ?? 0) < (lanes[free] ?? 0)) free = lane;
    lanes[free] = (lanes[free] ?? 0) + requests;
  }
  return Math.max(0, ...lanes);
}

/**
 * The run's time: its round trips one after the other times the measured latency, or the records at
 * the planning rate when that is longer; undefined when neither is known.
 * @example
 * estimateRunTime({ sliceRequests: [10, 10, 10, 10], concurrency: 2, latencyMs: 150, records: 4000 });
 * // { seconds: 3.3, boundBy: "latency", roundTrips: 22 }
 */
export function estimateRunTime(input: RunTimeInput): RunTimeEstimate | undefined {
  const roundTrips = longestLane(input.sliceRequests, input.concurrency) + STARTUP_ROUND_TRIPS;
  const wire = input.latencyMs === undefined ? undefined : (roundTrips * input.latencyMs) / 1000;
  const encoding = input.records === undefined ? undefined : input.records / PLANNING_RATE_RECORDS_PER_S;
  if (wire === undefined && encoding === undefined) return undefined;
  if (wire !== undefined && (encoding === undefined || wire >= encoding))
    return { seconds: wire, boundBy: "latency", roundTrips };
  return { seconds: encoding ?? 0, boundBy: "encoding", roundTrips };
}
