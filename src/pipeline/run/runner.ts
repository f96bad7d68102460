// Runs a plan's slices under bounded concurrency: each slice is fetched, written and committed as a
// whole (a batch export's slice partition by partition), retried from its start when the service
// loses its place, and checkpointed once committed.
import pLimit from "p-limit";
import {
  ERROR_CODES,
  errorMessage,
  EtlError,
  hasCode,
  isApiError,
  isStopped,
  spentRetryBudget,
  StoppedError,
} from "../../errors.js";
import type { Logger } from "../../logger.js";
import { isPartitionedSource } from "../../core/contracts.js";
import { whenAborted } from "../../core/when-aborted.js";
import type { PartitionedSource, RunInfo, Slice, Source } from "../../core/contracts.js";
import type { SliceTotals } from "../output-state/commit-outputs.js";
import { runParts } from "./run-parts.js";
import { commitSliceOutput, runSlice } from "./run-slice.js";
import type { SliceWork } from "./run-slice.js";
import type { StateStore } from "../output-state/state.js";
import { fileKey, previousFiles } from "../output-state/state-files.js";
import type { RemoveRecordedFile, SinkRuntime } from "./sink-runtime.js";

/** What one attempt at a slice needs; a partitioned source (batch export) commits part by part. */
export interface SliceStages extends Omit<SliceWork, "source"> {
  source: Source | PartitionedSource;
}

export interface SliceTask {
  slice: Slice;
  /** Builds the stages for one attempt at the slice (fresh source, transforms and sinks). */
  build(): SliceStages;
  /** Redo the slice even when committed (a re-check found its count changed, or it is open). */
  redo?: boolean;
  /** The slice ends after `now − settle`: it is committed as open, to be redone by the next run. */
  open?: boolean;
  /** The sinks a batch export's partition files are merged through; without them they stay as written. */
  merge?: readonly SinkRuntime[];
}

export interface RunnerEvents {
  sliceStarted?(slice: Slice, attempt: number): void;
  sliceCommitted?(slice: Slice, totals: SliceTotals): void;
  /** The slice starts again from its start after `error` (the next `sliceStarted` follows). */
  sliceRetried?(slice: Slice, error: unknown): void;
  /** The slice gave up (its retries spent, or an error no retry mends); a stop is not a give-up. */
  sliceGaveUp?(slice: Slice, error: unknown): void;
}

interface RunnerOptions {
  tasks: readonly SliceTask[];
  concurrency: number;
  maxAttemptsPerSlice: number;
  state: StateStore;
  /** Removes a file a redone slice no longer writes from its sink's store. */
  removeFile: RemoveRecordedFile;
  run: RunInfo;
  log: Logger;
  signal: AbortSignal;
  events?: RunnerEvents;
  /** Awaited right before each commit; throws once the run may no longer write (the lock's fence). */
  fence?: () => Promise<void>;
  /**
   * Asked before a slice (or a slice's next attempt) starts: an error means start no more, let those
   * running finish, and stop with it (a higher-priority run's claim in the quota ledger).
   */
  stopStarting?: () => unknown;
}

export interface RunOutcome {
  status: "complete" | "stopped" | "failed";
  committed: number;
  skipped: number;
  remaining: number;
  /** Why the run stopped or failed. */
  error?: unknown;
}

/** Errors after which the slice is worth starting again from its start. */
function isSliceRetryable(error: unknown): boolean {
  if (hasCode(error, ERROR_CODES.RECONCILIATION_FAILED)) return true;
  // An operation that spent its retry budget stops the run: restarting the slice would multiply it.
  if (spentRetryBudget(error)) return false;
  // Whether the service may answer next time is the API error's to say, whatever its code.
  if (isApiError(error)) return error.retryable;
  return false;
}

export async function runSlices(options: RunnerOptions): Promise<RunOutcome> {
  const { state, log } = options;
  const controller = new AbortController();
  // The caller's reason when it says why (stdout closed); a signal otherwise.
  const stopFollowing = whenAborted(options.signal, () =>
    controller.abort(
      isStopped(options.signal.reason) ? options.signal.reason : new StoppedError("stopped by a signal"),
    ),
  );

  const pending = options.tasks.filter((task) => task.redo === true || !state.isCommitted(task.slice.id));
  const skipped = options.tasks.length - pending.length;
  if (skipped > 0)
    log.info({ skipped, remaining: pending.length }, "Resuming: committed slices are skipped.");

  let committed = 0;
  let stopError: unknown;
  let failError: unknown;
  const limit = pLimit(Math.max(1, options.concurrency));

  const commit = async (task: SliceTask, totals: SliceTotals): Promise<void> => {
    // A redone slice replaces its files by name; remove those it wrote before and writes no more
    // (an earlier commit's, the pipeline's before a --force, an attempt's that failed midway).
    await options.fence?.();
    const kept = new Set(totals.files.map(fileKey));
    for (const old of previousFiles(state.state, task.slice.id))
      if (!kept.has(fileKey(old))) await options.removeFile(old);
    await state.commitSlice(task.slice.id, {
      start: task.slice.start.toISOString(),
      end: task.slice.end.toISOString(),
      committed_at: new Date().toISOString(),
      read: totals.read,
      expected: totals.expected ?? null,
      duplicates: totals.duplicates,
      files: totals.files,
      ...(task.open === true ? { open: true as const } : {}),
    });
  };

  const exportSlice = async (task: SliceTask): Promise<SliceTotals> => {
    const { source, ...stages } = task.build();
    const runOptions = { signal: controller.signal, log, run: options.run };
    if (isPartitionedSource(source)) {
      return runParts(task.slice, source, {
        ...runOptions,
        state,
        fence: options.fence,
        merge: task.merge,
        buildStages: task.build,
      });
    }
    return commitSliceOutput(
      await runSlice(task.slice, { source, ...stages }, runOptions),
      (files) => state.recordIntent(task.slice.id, files),
      options.fence,
    );
  };

  const attemptSlice = async (task: SliceTask): Promise<void> => {
    for (let attempt = 1; ; attempt++) {
      if (controller.signal.aborted || failError !== undefined) return;
      const stop = options.stopStarting?.();
      if (stop !== undefined) {
        stopError ??= stop;
        return;
      }
      options.events?.sliceStarted?.(task.slice, attempt);
      try {
        const totals = await exportSlice(task);
        await commit(task, totals);
        committed++;
        options.events?.sliceCommitted?.(task.slice, totals);
        return;
      } catch (error) {
        if (controller.signal.aborted) return;
        if (
          hasCode(
            error,
            ERROR_CODES.QUOTA_EXHAUSTED,
            ERROR_CODES.QUOTA_YIELDED,
            ERROR_CODES.QUOTA_LEDGER_UNREACHABLE,
            ERROR_CODES.OUTPUT_FULL,
          )
        ) {
          stopError ??= error;
          controller.abort(error);
          return;
        }
        if (isSliceRetryable(error) && attempt < options.maxAttemptsPerSlice) {
          log.warn(
            { slice: task.slice.id, attempt, error: errorMessage(error) },
            "Retrying the slice from its start.",
          );
          options.events?.sliceRetried?.(task.slice, error);
          continue;
        }
        options.events?.sliceGaveUp?.(task.slice, error);
        if (
          spentRetryBudget(error) ||
          (isSliceRetryable(error) && !hasCode(error, ERROR_CODES.RECONCILIATION_FAILED))
        ) {
          // The service stayed unavailable (or kept losing our place): stop, and resume later.
          // The reason names the failing operation, so the stop message says what to look at.
          stopError ??= new EtlError(
            "SLICE_GAVE_UP",
            `slice ${task.slice.id} gave up after ${attempt} attempt(s): ${errorMessage(error)}`,
            { cause: error },
          );
          controller.abort(stopError);
          return;
        }
        failError ??= new EtlError("SLICE_FAILED", `slice ${task.slice.id} failed: ${errorMessage(error)}`, {
          cause: error,
        });
        return;
      }
    }
  };

  try {
    await Promise.all(pending.map((task) => limit(() => attemptSlice(task))));
  } finally {
    stopFollowing();
  }

  const remaining = pending.length - committed;
  if (failError !== undefined) return { status: "failed", committed, skipped, remaining, error: failError };
  if (remaining > 0) {
    const error = stopError ?? (controller.signal.reason as unknown) ?? new StoppedError("stopped");
    return { status: "stopped", committed, skipped, remaining, error };
  }
  return { status: "complete", committed, skipped, remaining: 0 };
}
