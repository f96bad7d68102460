// Late data re-checked: one date histogram re-counts the committed slices. A slice whose count at the
// service rose is exported again; one whose count went down keeps its files (retention, a partial
// shard result or an index outage must not delete what was exported) and is reported, unless the
// pipeline says `on_decrease: replace`.
import type { Logger } from "../../logger.js";
import type { Slice } from "../../core/contracts.js";
import type { RecheckConfig } from "../../config/recheck-schema.js";
import type { StateStore } from "./state.js";

/** A committed slice whose count at the service is not what was committed. */
export interface ChangedSlice {
  slice: Slice;
  committed: number;
  service: number;
}

/** `the service now has fewer records than were exported`: the words of the warning, everywhere. */
const DECREASE_WARNING = "the service now has fewer records than were exported";

/**
 * The committed slices the histogram counts differently. A slice not committed, or not counted (the
 * kind cannot be probed), or still open (it is redone anyway), is not a re-check's business.
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

interface RecheckPlan<P> {
  /** What the run does: the window's slices, and the earlier ones exported again. */
  slices: P[];
  /** Committed slices to export again (within the window or before it). */
  changed: ChangedSlice[];
  /** Committed slices the service now counts fewer records in, whose files are kept. */
  decreased: ChangedSlice[];
}

interface RecheckRunInput<P extends { slice: Slice; expected: number | undefined }> {
  /** The plan's slices, counted, from the re-checked days before the window to its end. */
  slices: readonly P[];
  /** The window's own start: earlier slices are only there to be re-checked. */
  windowStart: Date;
  state: StateStore;
  runId: string;
  log: Logger;
  /** `--force` redoes every slice anyway: nothing counts as committed. */
  force: boolean;
  onDecrease: RecheckConfig["on_decrease"];
}

/**
 * Decides a re-checking run's slices from a plan that counted every slice, and records each change in
 * the state (the history of re-checks) before the slice is redone. A decrease kept is recorded once,
 * not on every run that finds it again, and warned about on every run.
 */
export async function recheckCommitted<P extends { slice: Slice; expected: number | undefined }>(
  input: RecheckRunInput<P>,
): Promise<RecheckPlan<P>> {
  const { state, log } = input;
  const committedRead = (id: string): number | undefined => {
    const committed = state.state.slices[id];
    return input.force || committed?.open === true ? undefined : committed?.read;
  };
  const differing = findChangedSlices(input.slices, committedRead);
  const isKept = (change: ChangedSlice): boolean =>
    change.service < change.committed && input.onDecrease === "keep";
  const changed = differing.filter((change) => !isKept(change));
  const decreased = differing.filter(isKept);
  const changedIds = new Set(changed.map((change) => change.slice.id));
  const slices = input.slices.filter(
    (plan) => plan.slice.start.getTime() >= input.windowStart.getTime() || changedIds.has(plan.slice.id),
  );
  const checked = input.slices.filter(
    (plan) => plan.expected !== undefined && committedRead(plan.slice.id) !== undefined,
  ).length;
  const record = (change: ChangedSlice, action: "exported" | "kept") =>
    state.recordRecheck(change.slice.id, {
      checked_at: new Date().toISOString(),
      run_id: input.runId,
      committed: change.committed,
      service: change.service,
      action,
    });
  for (const change of changed) {
    await record(change, "exported");
    log.info(
      { slice: change.slice.id, committed: change.committed, service: change.service },
      "Re-check: the service's count changed; the slice is exported again.",
    );
  }
  for (const change of decreased) {
    const last = state.state.rechecks[change.slice.id]?.at(-1);
    const known =
      last?.action === "kept" && last.committed === change.committed && last.service === change.service;
    if (!known) await record(change, "kept");
    log.warn(
      { slice: change.slice.id, committed: change.committed, service: change.service },
      `Re-check: ${DECREASE_WARNING}; the files are kept (recheck.on_decrease: replace, or --force over the slice, exports it again).`,
    );
  }
  log.info(
    { checked, changed: changed.length, decreased: decreased.length },
    "Re-checked the committed slices.",
  );
  return { slices, changed, decreased };
}

/** The summary lines of a re-checking run. */
export function formatRecheck(
  changed: readonly ChangedSlice[],
  decreased: readonly ChangedSlice[] = [],
): string {
  const lines = [
    `Re-checked committed slices: ${
      changed.length === 0
        ? "none changed"
        : `${changed.length} changed and exported again: ${changed.map(describeChangedSlice).join(", ")}`
    }`,
  ];
  if (decreased.length > 0)
    lines.push(
      `Warning: ${DECREASE_WARNING} in ${decreased.length} slice${decreased.length === 1 ? "" : "s"}; their files are kept: ${decreased.map(describeChangedSlice).join(", ")}`,
    );
  return `${lines.join("\n")}\n`;
}
