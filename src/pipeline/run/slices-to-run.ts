// Which slices a run runs, once its state is open: the window's own (those before it are planned only
// to be re-checked), narrowed by a re-check to those whose count rose, and widened by the open slices
// the output still holds; and which committed ones among them are redone. A slice the service may not
// have finished indexing (it ended after `now − settle`) is written but recorded as open, and every
// later run redoes it until it has settled — also when the later run's window no longer covers it, so
// an open slice is never silently left as it was.
import type { Logger } from "../../logger.js";
import { kindOf } from "../../components/environment.js";
import type { DataKindComponent } from "../../kinds/data-kind.js";
import type { Slice } from "../../core/contracts.js";
import { planSlice, settledUntil } from "../plan/plan.js";
import type { SlicePlan } from "../plan/plan.js";
import type { SourceSpec } from "../../kinds/source-spec.js";
import type { RunState } from "../output-state/state-schema.js";
import type { PreparedRun } from "./prepare-run.js";
import { recheckCommitted } from "../output-state/recheck.js";
import type { ChangedSlice } from "../output-state/recheck.js";
import type { StateStore } from "../output-state/state.js";

type SlicePlans = PreparedRun["shardPlan"];

export interface SlicesToRun {
  slices: SlicePlans;
  /** Committed slices to redo: a re-check found their count changed, or they are open. */
  redo: ReadonlySet<string>;
  /** What a re-check found changed (undefined when the run did not re-check). */
  rechecked: ChangedSlice[] | undefined;
  decreased: ChangedSlice[] | undefined;
}

/** The window's own slices of the plan: those before it are in the plan only to be re-checked. */
export function windowSlices(prepared: Pick<PreparedRun, "pipeline" | "shardPlan">): SlicePlans {
  const start = prepared.pipeline.source.window.start.getTime();
  return prepared.shardPlan.filter((plan) => plan.slice.start.getTime() >= start);
}

interface SlicesToRunInput {
  prepared: PreparedRun;
  state: StateStore;
  log: Logger;
  /** `--force`: a re-check then counts committed slices as if none were. */
  force: boolean;
}

export async function slicesToRun(input: SlicesToRunInput): Promise<SlicesToRun> {
  const { prepared, state } = input;
  const { pipeline } = prepared;
  let slices = windowSlices(prepared);
  let rechecked: ChangedSlice[] | undefined;
  let decreased: ChangedSlice[] | undefined;
  if (prepared.rechecking) {
    const recheck = await recheckCommitted({
      slices: prepared.shardPlan,
      windowStart: pipeline.source.window.start,
      state,
      runId: prepared.run.runId,
      log: input.log,
      force: input.force,
      onDecrease: pipeline.recheck.on_decrease,
    });
    slices = recheck.slices;
    rechecked = recheck.changed;
    decreased = recheck.decreased;
  }
  // Open slices are redone until they settle, those this window no longer covers included.
  const toRun = [
    ...slices,
    ...strayOpenSlices({
      planned: slices,
      state: state.state,
      query: pipeline.source,
      kind: kindOf(prepared.components, pipeline.source.kind),
      now: pipeline.source.window.now,
      settleMs: pipeline.source.window.settle_ms,
    }),
  ];
  const redo = new Set([
    ...(rechecked ?? []).map((change) => change.slice.id),
    ...committedToRedo(toRun, state.state),
  ]);
  return { slices: toRun, redo, rechecked, decreased };
}

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

/** Whether the state holds a slice recorded as open: a manifest over it is not complete. */
export function hasOpenSlice(state: Readonly<RunState>): boolean {
  return Object.values(state.slices).some((slice) => slice.open === true);
}
