// The end of a run, once its slices have run: the half-done commits removed, the state compacted,
// each sink's manifest (and `_SUCCESS` when the window is complete) written, the schemas pinned after
// a complete run, and the outcome reported. Every write passes the lock's fence; a run whose lock was
// taken over writes none of them and ends stopped.
import { pinSchemas } from "../../warehouse/pipeline-schemas.js";
import type { ExecutedRun } from "./execute-run.js";
import { removeInterruptedCommits } from "./leftovers.js";
import { buildManifest, manifestObjectPath, writeManifest } from "../output-state/manifest.js";
import { hasOpenSlice } from "./slices-to-run.js";
import type { OpenRun } from "./open-run.js";
import { logEnd } from "./run-log.js";
import type { RunPipelineOptions } from "./run-options.js";
import { describeOutcome } from "./run-outcome.js";
import type { PipelineOutcome } from "./run-outcome.js";
import type { RunOutcome } from "./runner.js";

export async function finishRun(
  open: OpenRun,
  executed: ExecutedRun,
  options: RunPipelineOptions,
): Promise<PipelineOutcome> {
  const { prepared, sinks, state, lock, tasks, toRun } = open;
  const { pipeline, run, shard } = prepared;
  const { sliced } = executed;
  const { log } = options;
  if (!lock.lost.aborted) {
    // A commit that failed midway (not killed) left final files its slice does not account for.
    const ids = tasks.map((task) => task.slice.id);
    await removeInterruptedCommits(open.removeFile, ids, state, log);
    await state.compact();
  }
  // An open slice anywhere in the output keeps its manifest from being complete until it settles.
  const complete = tasks.every((task) => state.isCommitted(task.slice.id)) && !hasOpenSlice(state.state);
  const mayWrite = (): Promise<boolean> =>
    lock.fence().then(
      () => true,
      () => false,
    );
  // Only a manifest written is named in the outcome: a reader of the report must not load an older one.
  const manifestsWritten = new Set<number>();
  for (const sink of sinks) {
    if (!sink.keepsFiles || !(await mayWrite())) continue;
    const manifest = buildManifest({
      state: state.state,
      sinkIndex: sink.index,
      runId: run.runId,
      destination: sink.store.location,
      format: sink.config.format,
      window: pipeline.source.window,
      complete,
      now: new Date(),
    });
    await writeManifest(sink.store, { ...manifest, schema: sink.schema.columns }, shard);
    manifestsWritten.add(sink.index);
  }
  // The first successful run pins each sink's schema; a later one records what the policy changed.
  if (sliced.status === "complete" && (await mayWrite())) await pinSchemas(sinks);
  // A lease that ran out after the last slice still stops the run: its manifest was not written.
  const outcome: RunOutcome =
    lock.lost.aborted && sliced.status === "complete"
      ? { ...sliced, status: "stopped", error: lock.lost.reason }
      : sliced;
  const result: PipelineOutcome = {
    rechecked: toRun.rechecked,
    decreased: toRun.decreased,
    ...outcome,
    pipeline: pipeline.name,
    runId: run.runId,
    shard,
    records: executed.records,
    elapsedMs: Date.now() - executed.startedAt,
    ...describeOutcome(toRun.slices, sinks, state.state, {
      ...executed,
      manifestPath: manifestObjectPath(shard),
      manifestsWritten,
    }),
  };
  logEnd(
    result,
    log,
    sinks.some((sink) => sink.keepsFiles),
  );
  options.events?.finished?.(result);
  return result;
}
