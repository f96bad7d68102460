// Opening a run: everything it holds until it ends, acquired in order — one store per sink and the
// output lock, then the service and the plan, the pinned schemas, the state, the slices to run — and
// released by `close` whatever happened. The output comes first: a run that
// cannot have it (locked by a live run, not writable, a lease setting refused, another pipeline's,
// refused by its state as changed, or pinned to a schema that cannot be read) ends before it asks the
// service anything. What an interrupted run
// left is removed here, before the first slice; nothing of the run's own output is written yet.
import type { Pipeline } from "../../config/pipeline-schema.js";
import { EtlError } from "../../errors.js";
import type { RunInfo } from "../../core/contracts.js";
import { kindOf } from "../../components/environment.js";
import { unlockedOutputs } from "../../sinks/open-output-store.js";
import { sparingWriters } from "../../core/writer-tag.js";
import { readPins, resolvePipelineSchemas } from "../../warehouse/pipeline-schemas.js";
import type { SinkPin } from "../../warehouse/pipeline-schemas.js";
import { logDrift } from "../../warehouse/schema-drift.js";
import { stateOptionsBeforePlan } from "./destinations.js";
import { checkOutputOwner } from "../output-state/state-owner.js";
import { removeLeftovers } from "./leftovers.js";
import { lockObjectPath, lockOutputs } from "../output-state/output-lock.js";
import type { OutputLock } from "../output-state/output-lock.js";
import { leaseFromEnv } from "../output-state/lock-lease.js";
import { checkRequestBudget } from "./request-budget.js";
import { newRunInfo, prepareRun } from "./prepare-run.js";
import type { PreparedRun } from "./prepare-run.js";
import type { RunPipelineOptions } from "./run-options.js";
import { unbound } from "./run-log.js";
import type { SliceTask } from "./runner.js";
import { createSinkRuntimes, openSinks, recordedFileRemover } from "./sink-runtime.js";
import type { OpenedSink, RemoveRecordedFile, SinkRuntime } from "./sink-runtime.js";
import { buildSliceTasks } from "./slice-tasks.js";
import { slicesToRun, windowSlices } from "./slices-to-run.js";
import type { SlicesToRun } from "./slices-to-run.js";
import { StateStore } from "../output-state/state.js";
import { checkStateBeforePlan, readStoredState } from "../output-state/state-open.js";
import type { StateOptionsBeforePlan, StoredState } from "../output-state/state-open.js";
import { kindColumnNames } from "../../kinds/data-kind.js";

/** A run between its opening and its end, with everything it holds. */
export interface OpenRun {
  prepared: PreparedRun;
  sinks: readonly SinkRuntime[];
  lock: OutputLock;
  state: StateStore;
  /** The slices this run runs and redoes, and what a re-check found. */
  toRun: SlicesToRun;
  tasks: readonly SliceTask[];
  removeFile: RemoveRecordedFile;
  /** Releases the lock, the stores and the service; throws only what closing the service throws. */
  close(): Promise<void>;
}

/** What the run holds so far: `close` releases exactly these, however far the opening got. */
interface Held {
  sinks: OpenedSink[];
  lock?: OutputLock;
  /** The state as read under the lock, with how it is opened: checked before any request, then opened. */
  state?: { options: StateOptionsBeforePlan; stored: StoredState | undefined };
  /** Each sink's pinned schema, read under the lock before any request. */
  pins?: (SinkPin | undefined)[];
}

/**
 * Opens the run: opens every sink's store and takes the lock, plans, resolves the schemas (drift the
 * policy refuses throws here), opens the state and decides the slices. On a failure, releases what it
 * had taken and throws.
 */
export async function openRun(pipeline: Pipeline, options: RunPipelineOptions): Promise<OpenRun> {
  const held: Held = { sinks: [] };
  const release = async (): Promise<void> => {
    await held.lock?.release().catch(() => undefined);
    for (const { store } of held.sinks) await store.close().catch(() => undefined);
  };
  const run = options.run ?? newRunInfo(pipeline.name);
  let prepared: PreparedRun;
  try {
    await takeHold(pipeline, run, options, held);
    prepared = await prepareRun(pipeline, {
      ...options,
      shard: options.shard,
      recheck: { requested: options.recheck === true },
      // The request budget is checked while the mappings are on their way.
      whileMappingsPending: async (planned) => checkRequestBudget(planned, options.log),
      run,
    });
  } catch (error) {
    await release();
    throw error;
  }
  const close = async (): Promise<void> => {
    await release();
    await prepared.session.close();
  };
  try {
    return { ...(await acquire(prepared, options, held)), close };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * Opens every sink's store and takes the output lock, into `held`, before any request: a lease
 * setting refused, an output that cannot be written or a lock a live run holds ends the run here.
 */
async function takeHold(
  pipeline: Pipeline,
  run: RunInfo,
  options: RunPipelineOptions,
  held: Held,
): Promise<void> {
  const { components } = options;
  const leaseMs = leaseFromEnv();
  await openSinks(pipeline.sinks, { run, stdout: options.stdout, log: options.log, components }, held.sinks);
  held.lock = await lockOutputs({
    stores: held.sinks.map((sink) => sink.store),
    path: lockObjectPath(options.shard),
    run,
    log: options.log,
    leaseMs,
    breakLock: options.breakLock === true,
    unlocked: unlockedOutputs(pipeline.sinks, components.destinations),
  });
  // Read under the lock, before anything at the output is read for this run or written: OUTPUT_OWNED
  // when a destination holds another pipeline's output (its state or its manifest names another
  // pipeline), --force or not. Every destination that keeps files is looked at, not only the one
  // holding the state, since a run writes files and a manifest into each.
  for (const sink of held.sinks)
    if (sink.keepsFiles) await checkOutputOwner(sink.store, pipeline.name, options.shard);
  // A pin that is missing or broken is the pipeline's own error: it ends the run before any request.
  held.pins = await readPins(pipeline, options.pipelineFile, held.sinks);
  // A changed pipeline, or a --force over part of a changed output, is refused from the state and the
  // pipeline alone: here, so a run that ends 2 on it has asked the service nothing.
  // State lives beside the first sink that keeps files; a stdout-only pipeline keeps none and always redoes.
  const stateSink = held.sinks.find((sink) => sink.keepsFiles) ?? held.sinks[0];
  if (stateSink === undefined) return;
  const state = stateOptionsBeforePlan({ pipeline, components }, stateSink.store, {
    shard: options.shard,
    force: options.force === true,
  });
  const stored = await readStoredState(stateSink.store, state.path);
  held.state = { options: state, stored };
  checkStateBeforePlan(stored, state);
}

async function acquire(
  prepared: PreparedRun,
  options: RunPipelineOptions,
  held: Held,
): Promise<Omit<OpenRun, "close">> {
  const { pipeline, run, shard, components } = prepared;
  const { log } = options;
  const opened = held.sinks;
  const lock = held.lock as OutputLock;
  // Drift is decided before anything is written: a change the policy refuses fails the run here.
  const schemas = await resolvePipelineSchemas({
    pipeline,
    transforms: components.transforms,
    pipelineFile: options.pipelineFile,
    sourceColumns: prepared.sourceColumns,
    sinks: opened,
    now: run.startedAt,
    kindNames: kindColumnNames(kindOf(components, pipeline.source.kind), pipeline.source),
    pins: held.pins,
  });
  for (const schema of schemas) logDrift(log, schema.where, schema.changes);
  if (held.state === undefined)
    throw new EtlError("INTERNAL", "the pipeline has no sink to keep its state in");
  const state = await StateStore.open({
    ...held.state.options,
    stored: held.state.stored,
    planned: windowSlices(prepared).map((plan) => plan.slice),
    // Every commit, state and manifest write goes through the lock's fence.
    fence: lock.fence,
  });
  // Folded into the state now: the run does not keep the read.
  held.state.stored = undefined;
  const toRun = await slicesToRun({ prepared, state, log, force: options.force === true });
  const removeFile = recordedFileRemover(opened);
  await removeLeftovers({
    stores: opened.map((sink) => sparingWriters(sink.store, lock.spared)),
    removeFile,
    slices: toRun.slices,
    state,
    shard,
    log,
    rechecked: toRun.redo,
  });
  log.info(
    {
      ...unbound(log, { pipeline: pipeline.name, run_id: run.runId }),
      service: prepared.session.describe,
      slices: toRun.slices.length,
      expected: prepared.plan.expectedRecords,
      requests: prepared.plan.estimatedRequests,
    },
    "Run started.",
  );
  const sinks = createSinkRuntimes(opened, { schemas, run, log });
  const tasks = buildSliceTasks({ prepared, sinks, state, toRun });
  return { prepared, sinks, lock, state, toRun, tasks, removeFile };
}
