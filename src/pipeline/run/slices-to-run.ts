// Which slices a run runs, once its state is open: the window's own (those before it are planned only
// to be re-checked), narrowed by a re-check to those whose count rose, and widened by the open slices
// the output still holds; and which committed ones among them are redone.
import type { Logger } from "../../logger.js";
import { kindOf } from "../../components/environment.js";
import type { Pipeline } from "../../config/pipeline-schema.js";
import { addOpenSlices } from "./open-slices.js";
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
  const pipeline: Pipeline = prepared.pipeline;
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
  const toRun = addOpenSlices(
    slices,
    state.state,
    pipeline.source,
    kindOf(input.prepared.components, pipeline.source.kind),
  );
  const redo = new Set([...(rechecked ?? []).map((change) => change.slice.id), ...toRun.redo]);
  return { slices: toRun.slices, redo, rechecked, decreased };
}
