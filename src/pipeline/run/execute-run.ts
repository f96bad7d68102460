// Running an open run's slices: the runner under the run's signal and the lock's, with the counts the
// outcome and the observers read.
import type { OpenRun } from "./open-run.js";
import type { RunPipelineOptions } from "./run-options.js";
import { runSlices } from "./runner.js";
import type { RunOutcome } from "./runner.js";

/** What running the slices left for the end of the run. */
export interface ExecutedRun {
  sliced: RunOutcome;
  /** Records read by the slices this run committed. */
  records: number;
  /** Slices committed by this run, by id. */
  committedNow: ReadonlySet<string>;
  /** The attempts this run made at each slice it started, by id. */
  attempts: ReadonlyMap<string, number>;
  /** When the slices started (ms since the epoch): the run's elapsed time is measured from it. */
  startedAt: number;
}

export async function executeRun(open: OpenRun, options: RunPipelineOptions): Promise<ExecutedRun> {
  const { prepared, tasks, state, lock } = open;
  const { pipeline, run, session } = prepared;
  const { log, events } = options;
  const attempts = new Map<string, number>();
  const committedNow = new Set<string>();
  let records = 0;
  let slicesDone = tasks.filter((task) => state.isCommitted(task.slice.id)).length;
  const startedAt = Date.now();
  events?.started?.({
    runId: run.runId,
    progress: () => ({
      records,
      slicesDone,
      slicesTotal: tasks.length,
      expectedRecords: prepared.plan.expectedRecords,
      quotaRemaining: session.client.quota.snapshot().remaining,
      ledger: session.ledger?.gate.progress(),
      concurrency: session.client.gate.limit,
      elapsedMs: Date.now() - startedAt,
    }),
  });
  const sliced = await runSlices({
    tasks,
    concurrency: pipeline.limits.concurrency,
    maxAttemptsPerSlice: pipeline.limits.max_retries_per_slice + 1,
    state,
    removeFile: open.removeFile,
    run,
    log,
    // A lock another run took over stops the slices as a signal does: the output is not ours now.
    signal: AbortSignal.any([options.signal, lock.lost]),
    fence: lock.fence,
    ...(session.ledger === undefined ? {} : { stopStarting: session.ledger.stopStarting }),
    events: {
      sliceStarted: (slice, attempt) => {
        attempts.set(slice.id, attempt);
        events?.sliceStarted?.(slice, attempt);
      },
      sliceCommitted: (slice, result) => {
        records += result.read;
        slicesDone++;
        committedNow.add(slice.id);
        log.debug({ slice: slice.id, read: result.read, expected: result.expected }, "Slice committed.");
        events?.sliceCommitted?.(slice, result);
      },
      sliceRetried: (slice, error) => events?.sliceRetried?.(slice, error),
      sliceGaveUp: (slice, error) => events?.sliceGaveUp?.(slice, error),
    },
  });
  return { sliced, records, committedNow, attempts, startedAt };
}
