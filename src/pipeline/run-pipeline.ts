// The composition root of a run: from a loaded pipeline to its outcome. Plans the window, opens the
// destinations and the state beside them, removes what an interrupted run left, runs the slices,
// writes the manifests, and reports what happened. The CLI prints the outcome; nothing here exits.
import type { Writable } from "node:stream";
import type { Pipeline } from "../config/pipeline-schema.js";
import { ConfigError } from "../errors.js";
import type { Logger } from "../logger.js";
import type { RunObserver } from "../core/run-observer.js";
import type { RunInfo } from "../core/contracts.js";
import { formatOf } from "../components/environment.js";
import type { Components } from "../components/environment.js";
import { lockObjectPath, lockOutputs } from "./output-lock.js";
import type { OutputLock } from "./output-lock.js";
import { openOutputStore, unlockedOutputs } from "../sinks/open-output-store.js";
import type { OutputStore } from "../core/contracts.js";
import { keepsFiles } from "./destinations.js";
import { stopAdvice } from "./stop-advice.js";
import { outputFingerprint } from "./fingerprint.js";
import { removeInterruptedCommits, removeLeftovers } from "./leftovers.js";
import { buildManifest, manifestObjectPath, writeManifest } from "./manifest.js";
import { prepareRun } from "./prepare-run.js";
import type { PreparedRun } from "./prepare-run.js";
import { describeOutcome } from "./run-outcome.js";
import type { PipelineOutcome, SliceTiming } from "./run-outcome.js";
import { runSlices } from "./runner.js";
import type { RunOutcome, RunnerEvents } from "./runner.js";
import type { Shard } from "./shard.js";
import { buildSliceTasks } from "./slice-tasks.js";
import { addOpenSlices, hasOpenSlice } from "./open-slices.js";
import { autoWorkerThreads, createWorkerPool } from "../core/worker-pool.js";
import type { WorkerPool } from "../core/worker-pool.js";
import { StateStore, stateObjectPath } from "./state.js";
import { sparingWriters } from "../core/writer-tag.js";
import { pinSchemas, resolvePipelineSchemas } from "../warehouse/pipeline-schemas.js";
import { recheckCommitted } from "./recheck.js";
import type { ChangedSlice } from "./recheck.js";
import { logDrift } from "../warehouse/schema-drift.js";

/** The counts of a run in progress, read as often as an observer likes. */
export interface RunProgress {
  records: number;
  slicesDone: number;
  slicesTotal: number;
  /** Records the plan expects in all, when the probe could tell. */
  expectedRecords: number | undefined;
  quotaRemaining: number | undefined;
  elapsedMs: number;
}

/** Hooks an observer (progress line, metrics) hangs on a run; all optional, none may throw. */
export interface PipelineEvents extends RunnerEvents {
  /** The slices are about to run; `progress()` reads the counts at any moment until `finished`. */
  started?(run: { runId: string; progress(): RunProgress }): void;
  finished?(outcome: PipelineOutcome): void;
}

export interface RunPipelineOptions {
  log: Logger;
  /** Aborted to stop the run cleanly (resumable). */
  signal: AbortSignal;
  /** Where `to: -` sinks write. */
  stdout: Writable;
  shard?: Shard | undefined;
  /** Redo every slice of the window, even committed ones or after the pipeline changed (see state-force.ts). */
  force?: boolean;
  /** Re-count the committed slices and redo those whose count changed (`--recheck`). */
  recheck?: boolean;
  /** Replace an output lock that cannot be read or whose lease lies too far ahead (`--break-lock`). */
  breakLock?: boolean;
  /** The pipeline file: a pinned schema committed next to it is read relative to it. */
  pipelineFile: string;
  events?: PipelineEvents;
  /** The run's identity when the caller made it first (to label its logs and metrics). */
  run?: RunInfo;
  /** Told of the client's requests, retries and quota (the run's metrics). */
  observer?: RunObserver;
  /** The environment the pipeline was loaded with; the built-in components unless given. */
  components?: Components | undefined;
}

/** Refuses a plan beyond `limits.max_requests`, and warns when the quota will stop the run. */
function checkRequestBudget(prepared: PreparedRun, log: Logger): void {
  const { pipeline } = prepared;
  const estimate = prepared.shardPlan.reduce((sum, slice) => sum + slice.requests, 0);
  const max = pipeline.limits.max_requests;
  if (max !== undefined && estimate > max) {
    const message = `the plan needs about ${estimate} requests, more than limits.max_requests (${max}); narrow the window or raise the limit`;
    throw new ConfigError(message, [{ path: "limits.max_requests", message }]);
  }
  const quotaLeft = prepared.plan.quotaRemaining;
  if (quotaLeft !== undefined && estimate > quotaLeft - pipeline.limits.quota_reserve) {
    log.warn(
      { estimate, quota_remaining: quotaLeft, quota_reserve: pipeline.limits.quota_reserve },
      "The plan needs more requests than the quota leaves above the reserve; the run will stop there and resume later.",
    );
  }
}

/**
 * Runs the pipeline's window (or one shard of it), resuming what an earlier run committed.
 * Throws before any slice runs (ConfigError for a plan over the request limit, store or state errors);
 * after that, failures are in the outcome.
 * @example
 * const outcome = await runPipeline(pipeline, { log, signal, stdout: process.stdout });
 * if (outcome.status === "stopped") scheduleAgain();
 */
export async function runPipeline(pipeline: Pipeline, options: RunPipelineOptions): Promise<PipelineOutcome> {
  const { log, shard } = options;
  const prepared = await prepareRun(pipeline, {
    log,
    signal: options.signal,
    shard,
    recheck: { requested: options.recheck === true },
    components: options.components,
    ...(options.run === undefined ? {} : { run: options.run }),
    ...(options.observer === undefined ? {} : { observer: options.observer }),
  });
  const { session, run, components } = prepared;
  const { destinations } = components;
  // The window's own slices; those before it are in the plan only to be re-checked.
  let shardPlan = prepared.shardPlan.filter(
    (plan) => plan.slice.start.getTime() >= pipeline.source.window.start.getTime(),
  );
  const stores: OutputStore[] = [];
  let lock: OutputLock | undefined;
  let workers: WorkerPool | undefined;
  try {
    checkRequestBudget(prepared, log);
    for (const sink of pipeline.sinks)
      stores.push(await openOutputStore(sink, { run, stdout: options.stdout }, destinations));
    lock = await lockOutputs({
      stores,
      path: lockObjectPath(shard),
      run,
      log,
      breakLock: options.breakLock === true,
      unlocked: unlockedOutputs(pipeline.sinks, destinations),
    });
    // Every commit, state and manifest write goes through the lock's fence.
    const fence = lock.fence;
    // Drift is decided before anything is written: a change the policy refuses fails the run here.
    const schemas = await resolvePipelineSchemas({
      pipeline,
      transforms: components.transforms,
      pipelineFile: options.pipelineFile,
      sourceColumns: prepared.sourceColumns,
      stores,
      now: run.startedAt,
    });
    for (const schema of schemas) logDrift(log, schema.where, schema.changes);
    // State lives beside the first sink's output; a stdout-only pipeline keeps none and always redoes.
    const stateStore =
      stores.find((_, index) => {
        const sink = pipeline.sinks[index];
        return sink !== undefined && keepsFiles(sink, destinations);
      }) ?? (stores[0] as OutputStore);
    const state = await StateStore.open({
      store: stateStore,
      path: stateObjectPath(shard),
      pipeline: pipeline.name,
      fingerprint: outputFingerprint(pipeline, destinations),
      force: options.force === true,
      // A --force redoes the run's window (and shard); what is committed outside it stays.
      forceWindow: pipeline.source.window,
      planned: shardPlan.map((plan) => plan.slice),
      fence,
    });
    let rechecked: ChangedSlice[] | undefined;
    let decreased: ChangedSlice[] | undefined;
    if (prepared.rechecking) {
      const recheck = await recheckCommitted({
        slices: prepared.shardPlan,
        windowStart: pipeline.source.window.start,
        state,
        runId: run.runId,
        log,
        force: options.force === true,
        onDecrease: pipeline.recheck.on_decrease,
      });
      shardPlan = recheck.slices;
      rechecked = recheck.changed;
      decreased = recheck.decreased;
    }
    // Open slices are redone until they settle, those this window no longer covers included.
    const toRun = addOpenSlices(
      shardPlan,
      state.state,
      pipeline.source,
      components.kinds[pipeline.source.kind],
    );
    shardPlan = toRun.slices;
    const redo = new Set([...(rechecked ?? []).map((change) => change.slice.id), ...toRun.redo]);
    const spared = lock.spared;
    const sweep = stores.map((store) => sparingWriters(store, spared));
    await removeLeftovers(sweep, shardPlan, state, shard, log, redo);
    log.info(
      {
        ...unbound(log, { pipeline: pipeline.name, run_id: run.runId }),
        service: session.describe,
        slices: shardPlan.length,
        expected: prepared.plan.expectedRecords,
        requests: prepared.plan.estimatedRequests,
      },
      "Run started.",
    );
    workers = createWorkerPool(encodeThreads(pipeline, components));
    if (workers.threads > 0)
      log.debug({ threads: workers.threads }, "Parquet row groups are encoded in worker threads.");
    const tasks = buildSliceTasks({
      workers,
      prepared,
      stores,
      state,
      columns: prepared.columns,
      run,
      log,
      slices: shardPlan,
      schemas,
      redo,
    });
    const events = options.events;
    const timings = new Map<string, SliceTiming>();
    const committedNow = new Set<string>();
    let records = 0;
    let slicesDone = tasks.filter((task) => state.isCommitted(task.slice.id)).length;
    const started = Date.now();
    events?.started?.({
      runId: run.runId,
      progress: () => ({
        records,
        slicesDone,
        slicesTotal: tasks.length,
        expectedRecords: prepared.plan.expectedRecords,
        quotaRemaining: session.client.quota.snapshot().remaining,
        elapsedMs: Date.now() - started,
      }),
    });
    const sliced = await runSlices({
      tasks,
      concurrency: pipeline.limits.concurrency,
      maxAttemptsPerSlice: pipeline.limits.max_retries_per_slice + 1,
      state,
      stores,
      run,
      log,
      // A lock another run took over stops the slices as a signal does: the output is not ours now.
      signal: AbortSignal.any([options.signal, lock.lost]),
      fence,
      events: {
        sliceStarted: (slice, attempt) => {
          const timing = timings.get(slice.id);
          if (timing === undefined) timings.set(slice.id, { attempts: attempt, startedAt: Date.now() });
          else timing.attempts = attempt;
          events?.sliceStarted?.(slice, attempt);
        },
        sliceCommitted: (slice, result) => {
          records += result.read;
          slicesDone++;
          committedNow.add(slice.id);
          const timing = timings.get(slice.id);
          if (timing !== undefined) timing.durationMs = Date.now() - timing.startedAt;
          log.debug({ slice: slice.id, read: result.read, expected: result.expected }, "Slice committed.");
          events?.sliceCommitted?.(slice, result);
        },
        sliceRetried: (slice, error) => events?.sliceRetried?.(slice, error),
      },
    });
    // A commit that failed midway (not killed) left final files its slice does not account for.
    if (!lock.lost.aborted)
      await removeInterruptedCommits(
        stores,
        tasks.map((task) => task.slice.id),
        state,
        log,
      );
    if (!lock.lost.aborted) await state.compact();
    // An open slice anywhere in the output keeps its manifest from being complete until it settles.
    const complete = tasks.every((task) => state.isCommitted(task.slice.id)) && !hasOpenSlice(state.state);
    const manifests: string[] = [];
    const mayWrite = (): Promise<boolean> =>
      fence().then(
        () => true,
        () => false,
      );
    for (const [index, store] of stores.entries()) {
      const sink = pipeline.sinks[index];
      if (sink === undefined || !keepsFiles(sink, destinations) || !(await mayWrite())) continue;
      const manifest = buildManifest({
        state: state.state,
        sinkIndex: index,
        runId: run.runId,
        destination: store.location,
        format: sink.format,
        window: pipeline.source.window,
        complete,
        now: new Date(),
      });
      await writeManifest(store, { ...manifest, schema: schemas[index]?.columns }, shard);
      manifests.push(`${store.location}/${manifestObjectPath(shard)}`);
    }
    // The first successful run pins each sink's schema; a later one records what the policy changed.
    if (sliced.status === "complete" && (await mayWrite()))
      await pinSchemas(pipeline, schemas, stores, destinations);
    // A lease that ran out after the last slice still stops the run: its manifest was not written.
    const outcome: RunOutcome =
      lock.lost.aborted && sliced.status === "complete"
        ? { ...sliced, status: "stopped", error: lock.lost.reason }
        : sliced;
    const result: PipelineOutcome = {
      rechecked,
      decreased,
      ...outcome,
      pipeline: pipeline.name,
      runId: run.runId,
      shard,
      service: session.describe,
      records,
      elapsedMs: Date.now() - started,
      expectedRecords: prepared.plan.expectedRecords,
      estimatedRequests: prepared.plan.estimatedRequests,
      quotaRemaining: session.client.quota.snapshot().remaining,
      ...describeOutcome({
        pipeline,
        destinations,
        outcome,
        slices: shardPlan,
        state: state.state,
        committedNow,
        timings,
        stores,
        manifestPath: manifestObjectPath(shard),
      }),
      manifests,
    };
    logEnd(
      result,
      log,
      pipeline.sinks.some((sink) => keepsFiles(sink, destinations)),
    );
    events?.finished?.(result);
    return result;
  } finally {
    await workers?.close().catch(() => undefined);
    await lock?.release().catch(() => undefined);
    for (const store of stores) await store.close().catch(() => undefined);
    await session.close();
  }
}

/** Only a format that encodes on worker threads gets them; others cost less than a thread hop. */
function encodeThreads(pipeline: Pipeline, components: Components): number {
  if (!pipeline.sinks.some((sink) => formatOf(components, sink).usesWorkers)) return 0;
  const { encode_threads: threads, concurrency } = pipeline.limits;
  return threads === "auto" ? autoWorkerThreads(concurrency) : threads;
}

/** The fields the logger does not already carry: a key twice in one line is refused by collectors. */
function unbound(log: Logger, fields: Record<string, string>): Record<string, string> {
  const bound = log.bindings();
  return Object.fromEntries(Object.entries(fields).filter(([key]) => !Object.hasOwn(bound, key)));
}

function logEnd(outcome: PipelineOutcome, log: Logger, keepsState: boolean): void {
  if (outcome.status === "complete") {
    log.info(
      { ...unbound(log, { run_id: outcome.runId }), records: outcome.records, slices: outcome.slices.length },
      "Run complete.",
    );
  } else if (outcome.status === "stopped") {
    const error = outcome.error;
    log.warn(
      { remaining_slices: outcome.remaining, reason: error instanceof Error ? error.message : String(error) },
      stopAdvice(error, keepsState),
    );
  }
}
