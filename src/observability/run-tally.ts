// The counts of one run kept as plain numbers, for the run report: what the metrics count, plus how
// each slice ended and the quota before and after.
import type { RetryReason, RunObserver, SliceOutcome } from "../core/run-observer.js";

export interface SliceTally {
  outcome: SliceOutcome;
  duration_seconds: number | null;
}

/** What the report reads of the tally; its keys are the ones `snapshot` builds. */
export type TallySnapshot = ReturnType<ReturnType<typeof createRunTally>["snapshot"]>;

// Its type is what `snapshot` builds: the tally's keys are stated once.
export function createRunTally() {
  let recordsRead = 0;
  const written = new Map<number, { rows: number; bytes: number }>();
  const requests: Record<string, Record<string, number>> = {};
  const retries: Partial<Record<RetryReason, number>> = {};
  let quotaBefore: number | null = null;
  let quotaAfter: number | null = null;
  let batchWait = 0;
  // The requests let wait for an answer at once (adaptive concurrency): at the start (the pipeline's
  // limits.concurrency), the lowest it went, at the end, and how often it moved.
  const concurrency: { start: number | null; lowest: number | null; end: number | null; changes: number } = {
    start: null,
    lowest: null,
    end: null,
    changes: 0,
  };
  const slices: Record<string, SliceTally> = {};
  const sum = (values: Iterable<number>): number => [...values].reduce((a, b) => a + b, 0);

  const observer: RunObserver = {
    requestSent(operation, status) {
      const byStatus = (requests[operation] ??= {});
      byStatus[status] = (byStatus[status] ?? 0) + 1;
    },
    retried: (reason) => void (retries[reason] = (retries[reason] ?? 0) + 1),
    quotaReported(remaining) {
      quotaBefore ??= remaining;
      quotaAfter = remaining;
    },
    concurrencyChanged(limit) {
      if (concurrency.start === null) concurrency.start = limit;
      else concurrency.changes += 1;
      concurrency.lowest = Math.min(concurrency.lowest ?? limit, limit);
      concurrency.end = limit;
    },
    sliceFinished(slice, outcome, durationSeconds) {
      slices[slice] = { outcome, duration_seconds: durationSeconds ?? null };
    },
    batchWaited: (seconds) => void (batchWait += seconds),
    recordsRead: (count) => void (recordsRead += count),
    recordsWritten(sink, rows, bytes) {
      const entry = written.get(sink) ?? { rows: 0, bytes: 0 };
      written.set(sink, { rows: entry.rows + rows, bytes: entry.bytes + bytes });
    },
  };
  return {
    ...observer,
    snapshot: () => ({
      records_read: recordsRead,
      written: [...written.entries()].sort(([a], [b]) => a - b).map(([sink, entry]) => ({ sink, ...entry })),
      requests: {
        total: sum(Object.values(requests).flatMap((byStatus) => Object.values(byStatus))),
        by_operation: structuredClone(requests),
      },
      retries: { total: sum(Object.values(retries)), by_reason: { ...retries } },
      quota: { before: quotaBefore, after: quotaAfter },
      concurrency: { ...concurrency },
      batch_wait_seconds: batchWait,
      slices: structuredClone(slices),
    }),
  };
}
