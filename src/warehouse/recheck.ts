// Late data re-checked: one date histogram re-counts the committed slices, and exactly the slices
// whose count at the service differs from what was committed are exported again.
import { z } from "zod";
import type { Logger } from "../logger.js";
import type { Slice } from "../pipeline/contracts.js";
import type { StateStore } from "../pipeline/state.js";

export const recheckSchema = z
  .strictObject({
    last_days: z
      .number()
      .int()
      .min(0)
      .max(366)
      .default(0)
      .describe(
        "On every run, also re-check the committed slices of this many days before the window's start (one date histogram), and export again those whose count at the service changed. 0: only with --recheck, over the window.",
      ),
  })
  .describe("Re-checking committed slices for records the service received late.");

export type RecheckConfig = z.infer<typeof recheckSchema>;

/** A committed slice whose count at the service is not what was committed. */
export interface ChangedSlice {
  slice: Slice;
  committed: number;
  service: number;
}

/**
 * The committed slices the histogram counts differently. A slice not committed, or not counted (the
 * kind cannot be probed), is not a re-check's business.
 * @example findChangedSlices(plan.slices, (id) => state.state.slices[id]?.read)
 */
export function findChangedSlices(
  slices: readonly { slice: Slice; expected: number | undefined }[],
  committedRead: (sliceId: string) => number | undefined,
): ChangedSlice[] {
  const changed: ChangedSlice[] = [];
  for (const { slice, expected } of slices) {
    const committed = committedRead(slice.id);
    if (committed === undefined || expected === undefined || expected === committed) continue;
    changed.push({ slice, committed, service: expected });
  }
  return changed;
}

/** `20261120T100000Z: 120 → 132 (+12)`. */
export function describeChangedSlice(change: ChangedSlice): string {
  const difference = change.service - change.committed;
  return `${change.slice.id}: ${change.committed} → ${change.service} (${difference > 0 ? "+" : ""}${difference})`;
}

export interface RecheckPlanInput<P extends { slice: Slice; expected: number | undefined }> {
  /** The plan's slices, from `windowStart` less the re-checked days to the window's end. */
  slices: readonly P[];
  /** The window's own start: earlier slices are only there to be re-checked. */
  windowStart: Date;
  committedRead(sliceId: string): number | undefined;
}

export interface RecheckPlan<P> {
  /** What the run does: the window's slices, and the earlier ones that changed. */
  slices: P[];
  /** Committed slices to export again (within the window or before it). */
  changed: ChangedSlice[];
  /** Committed slices the histogram counted. */
  checked: number;
}

/** Chooses the slices of a re-checking run from a plan that counted every slice. */
export function planRecheck<P extends { slice: Slice; expected: number | undefined }>(
  input: RecheckPlanInput<P>,
): RecheckPlan<P> {
  const changed = findChangedSlices(input.slices, input.committedRead);
  const changedIds = new Set(changed.map((change) => change.slice.id));
  const slices = input.slices.filter(
    (plan) => plan.slice.start.getTime() >= input.windowStart.getTime() || changedIds.has(plan.slice.id),
  );
  const checked = input.slices.filter(
    (plan) => plan.expected !== undefined && input.committedRead(plan.slice.id) !== undefined,
  ).length;
  return { slices, changed, checked };
}

export interface RecheckRunInput<P extends { slice: Slice; expected: number | undefined }> {
  /** The plan's slices, counted, from the re-checked days before the window to its end. */
  slices: readonly P[];
  windowStart: Date;
  state: StateStore;
  runId: string;
  log: Logger;
  /** `--force` redoes every slice anyway: nothing counts as committed. */
  force: boolean;
}

/**
 * Decides a re-checking run's slices and records each change in the state (the history of
 * re-exports) before the slice is redone.
 */
export async function recheckCommitted<P extends { slice: Slice; expected: number | undefined }>(
  input: RecheckRunInput<P>,
): Promise<RecheckPlan<P>> {
  const recheck = planRecheck({
    slices: input.slices,
    windowStart: input.windowStart,
    committedRead: (id) => (input.force ? undefined : input.state.state.slices[id]?.read),
  });
  for (const change of recheck.changed) {
    await input.state.recordRecheck(change.slice.id, {
      checked_at: new Date().toISOString(),
      run_id: input.runId,
      committed: change.committed,
      service: change.service,
    });
    input.log.info(
      { slice: change.slice.id, committed: change.committed, service: change.service },
      "Re-check: the service's count changed; the slice is exported again.",
    );
  }
  input.log.info(
    { checked: recheck.checked, changed: recheck.changed.length },
    "Re-checked the committed slices.",
  );
  return recheck;
}

/** The summary line of a re-checking run. */
export function formatRecheck(changed: readonly ChangedSlice[]): string {
  return `Re-checked committed slices: ${
    changed.length === 0
      ? "none changed"
      : `${changed.length} changed and exported again: ${changed.map(describeChangedSlice).join(", ")}`
  }\n`;
}
