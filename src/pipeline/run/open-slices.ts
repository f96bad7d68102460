// Slices the service may not have finished indexing. A slice that ended after `now − settle` is
// written but recorded as open, and every later run redoes it until it has settled — also when the
// later run's window no longer covers it, so an open slice is never silently left as it was.
import type { DataKindComponent } from "../../kinds/data-kind.js";
import type { Slice } from "../../core/contracts.js";
import { planSlice, settledUntil } from "../plan/plan.js";
import type { SlicePlan } from "../plan/plan.js";
import type { SourceSpec } from "../../kinds/source-spec.js";
import type { RunState } from "../output-state/state.js";

/**
 * Planned slices already committed that this run must redo: those recorded as open, and those whose
 * committed range does not cover the planned one (an earlier window clipped them short).
 */
export function committedToRedo(slices: readonly SlicePlan[], state: Readonly<RunState>): Set<string> {
  const redo = new Set<string>();
  for (const { slice } of slices) {
    const committed = state.slices[slice.id];
    if (committed === undefined) continue;
    const covers =
      Date.parse(committed.start) <= slice.start.getTime() &&
      Date.parse(committed.end) >= slice.end.getTime();
    if (committed.open === true || !covers) redo.add(slice.id);
  }
  return redo;
}

interface StrayOpenInput {
  /** The slices the run planned. */
  planned: readonly SlicePlan[];
  state: Readonly<RunState>;
  query: SourceSpec;
  /** The query's data kind, from the environment: how a stray slice is retrieved. */
  kind: DataKindComponent;
  now: Date;
  settleMs: number;
  /** This machine's clock, taken with `now` as the planner does (settledUntil). Default: the real clock. */
  wallClock?: () => Date;
}

/**
 * Slices recorded as open that the run's window does not cover: each is planned again over the
 * range it was committed with (the part an earlier window asked for), and is open again only if
 * that range still ends after `settle` before the earlier of `now` and the machine's clock.
 */
export function strayOpenSlices(input: StrayOpenInput): SlicePlan[] {
  const planned = new Set(input.planned.map((plan) => plan.slice.id));
  const settledBefore = settledUntil(input.now, input.settleMs, input.wallClock);
  let index = input.planned.reduce((max, plan) => Math.max(max, plan.slice.index + 1), 0);
  const stray: SlicePlan[] = [];
  for (const [id, committed] of Object.entries(input.state.slices).sort(([a], [b]) => a.localeCompare(b))) {
    if (committed.open !== true || planned.has(id)) continue;
    const slice: Slice = {
      index: index++,
      id,
      start: new Date(committed.start),
      end: new Date(committed.end),
    };
    stray.push({
      ...planSlice(input.query, input.kind, slice, undefined),
      open: slice.end.getTime() > settledBefore,
    });
  }
  return stray;
}

/**
 * The slices a run does, with the open ones its window no longer covers, and the committed ones it
 * must redo (open, or cut short by an earlier window).
 */
export function addOpenSlices(
  planned: readonly SlicePlan[],
  state: Readonly<RunState>,
  source: SourceSpec & { window: { now: Date; settle_ms: number } },
  kind: DataKindComponent,
): { slices: SlicePlan[]; redo: Set<string> } {
  const slices = [
    ...planned,
    ...strayOpenSlices({
      planned,
      state,
      query: source,
      kind,
      now: source.window.now,
      settleMs: source.window.settle_ms,
    }),
  ];
  return { slices, redo: committedToRedo(slices, state) };
}

/** Whether the state holds a slice recorded as open: a manifest over it is not complete. */
export function hasOpenSlice(state: Readonly<RunState>): boolean {
  return Object.values(state.slices).some((slice) => slice.open === true);
}
