// The composition root of a run: from a loaded pipeline to its outcome, in three steps. `openRun`
// plans and acquires everything the run holds (stores, lock, schemas, state) and removes
// what an interrupted run left; `executeRun` runs the slices; `finishRun` writes the end (manifests,
// `_SUCCESS`, the compacted state, the pins) and reports. The run is closed on every path. The CLI
// prints the outcome; nothing here exits.
import type { Pipeline } from "../../config/pipeline-schema.js";
import { executeRun } from "./execute-run.js";
import { finishRun } from "./finish-run.js";
import { openRun } from "./open-run.js";
import type { PipelineOutcome } from "./run-outcome.js";
import type { RunPipelineOptions } from "./run-options.js";

/**
 * Runs the pipeline's window (or one shard of it), resuming what an earlier run committed.
 * Throws before any slice runs (ConfigError for a plan over the request limit, store or state errors);
 * after that, failures are in the outcome.
 * @example
 * const outcome = await runPipeline(pipeline, { log, signal, stdout: process.stdout });
 * if (outcome.status === "stopped") scheduleAgain();
 */
export async function runPipeline(pipeline: Pipeline, options: RunPipelineOptions): Promise<PipelineOutcome> {
  const open = await openRun(pipeline, options);
  try {
    const outcome = await finishRun(open, await executeRun(open, options), options);
    // The ledger learns how the run ended: a complete one releases its pipeline's standing claim.
    await open.prepared.session.ledger?.end(outcome.status);
    return outcome;
  } finally {
    await open.close();
  }
}
