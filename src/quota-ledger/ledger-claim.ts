// The requests a run claims in the ledger from its plan. A slice the planner could not probe (a fixed
// slice length with a fixed strategy, or a probe the service refused) is planned at one page: claimed
// as that, it would under-claim silently, and a higher-priority run's claim would protect too little.
// Such a slice is claimed at UNPROBED_SLICE_PAGES pages instead; the claim is corrected upward as the
// run reserves past it (ledger-gate.ts), and ends with the run.

/** Pages an unprobed slice is claimed at: a conservative guess, corrected as the run spends. */
export const UNPROBED_SLICE_PAGES = 10;

/** How the plan retrieves a slice; aggregations, batch exports and billing cost what they cost. */
const FIXED_COST = new Set(["aggs", "batch", "billing"]);

export interface PlannedSlice {
  /** Requests the planner expects the slice to cost. */
  requests: number;
  /** Records the probe counted; undefined without a probe. */
  expected: number | undefined;
  retrieval: string;
}

/** Whether the slice's requests rest on a guess: paged, and not counted by a probe. */
export function isUnprobed(slice: PlannedSlice): boolean {
  return slice.expected === undefined && !FIXED_COST.has(slice.retrieval);
}

/**
 * The requests to claim for `slices`: their planned requests, and for each unprobed slice at least
 * UNPROBED_SLICE_PAGES.
 * @example claimFor([{ requests: 1, expected: undefined, retrieval: "pit" }]) // 10
 */
export function claimFor(slices: readonly PlannedSlice[]): number {
  return slices.reduce(
    (sum, slice) =>
      sum + (isUnprobed(slice) ? Math.max(slice.requests, UNPROBED_SLICE_PAGES) : slice.requests),
    0,
  );
}
