// The run's events as the observer's counts: a committed slice's records, rows and bytes, its
// duration from the first attempt; slices started again and why; at the end, the slices an earlier
// run committed (skipped), those that gave up (failed) and those the run's stop cut short (stopped:
// a signal, a lost lock, the quota; the next run redoes them, and no alert on failures should fire).
import { ERROR_CODES, hasCode, isApiError } from "../errors.js";
import { retryReasonOf } from "../api/observed-transport.js";
import type { PipelineEvents } from "../pipeline/run/run-options.js";
import type { PipelineOutcome } from "../pipeline/run/run-outcome.js";
import type { RetryReason, RunObserver } from "../core/run-observer.js";

/** Why a slice starts again from its start, for the retries metric. */
function sliceRetryReason(error: unknown): RetryReason {
  if (hasCode(error, ERROR_CODES.PAGING_CONTEXT_LOST)) return "context_lost";
  if (isApiError(error)) return retryReasonOf(error);
  return "reconciliation";
}

/**
 * @example
 * await runPipeline(pipeline, { ...options, events: observePipeline(observer, { started }) });
 */
export function observePipeline(
  observer: RunObserver,
  also: PipelineEvents = {},
  onFinished?: (outcome: PipelineOutcome) => void,
): PipelineEvents {
  const firstStarted = new Map<string, number>();
  const gaveUp = new Set<string>();
  const seconds = (slice: string): number =>
    (performance.now() - (firstStarted.get(slice) ?? performance.now())) / 1000;
  return {
    started: (run) => also.started?.(run),
    sliceStarted(slice, attempt) {
      if (!firstStarted.has(slice.id)) firstStarted.set(slice.id, performance.now());
      also.sliceStarted?.(slice, attempt);
    },
    sliceRetried(slice, error) {
      observer.retried(sliceRetryReason(error));
      also.sliceRetried?.(slice, error);
    },
    sliceGaveUp(slice, error) {
      gaveUp.add(slice.id);
      also.sliceGaveUp?.(slice, error);
    },
    sliceCommitted(slice, totals) {
      observer.recordsRead(totals.read);
      const bySink = new Map<number, { rows: number; bytes: number }>();
      for (const file of totals.files) {
        const entry = bySink.get(file.sink) ?? { rows: 0, bytes: 0 };
        bySink.set(file.sink, { rows: entry.rows + file.rows, bytes: entry.bytes + file.bytes });
      }
      for (const [sink, { rows, bytes }] of bySink) observer.recordsWritten(sink, rows, bytes);
      observer.sliceFinished(slice.id, "committed", seconds(slice.id));
      also.sliceCommitted?.(slice, totals);
    },
    finished(outcome) {
      for (const slice of outcome.slices) {
        if (slice.status === "skipped") observer.sliceFinished(slice.id, "skipped");
        else if (slice.status === "pending" && firstStarted.has(slice.id))
          observer.sliceFinished(slice.id, gaveUp.has(slice.id) ? "failed" : "stopped", seconds(slice.id));
      }
      onFinished?.(outcome);
      also.finished?.(outcome);
    },
  };
}
