// What the rest of the code reports while a run goes: requests, retries, quota, slices, batch waits,
// records read and written. Metrics and the run report implement it; code that is not observed gets
// the no-op one, so call sites never check for an observer. This module imports nothing: api/,
// pipeline/ and sinks/ depend on it as they depend on the logger.

/** Why a request or a slice was sent again. */
export const RETRY_REASONS = ["429", "5xx", "network", "token", "context_lost", "reconciliation"] as const;
export type RetryReason = (typeof RETRY_REASONS)[number];

/**
 * How a slice of this run ended. `failed`: it gave up; `stopped`: the run's stop (a signal, a lost
 * lock, the quota) cut it short, and the next run redoes it.
 */
export const SLICE_OUTCOMES = ["committed", "skipped", "failed", "stopped"] as const;
export type SliceOutcome = (typeof SLICE_OUTCOMES)[number];

/** What a run sharing the quota through the ledger knows of it, each value since the run started. */
export interface QuotaLedgerNumbers {
  /** The fleet's remaining count as the ledger keeps it. */
  remaining: number | undefined;
  /** Requests this run reserved from the ledger, and of those spent (answered). */
  reserved: number;
  spent: number;
  /** The run's `limits.quota.priority`: high, normal or low. */
  priority: string;
  /** Round trips to the ledger (blocks, lease renewals, the end). */
  roundTrips: number;
  /** Time this run's requests waited for a permit. */
  waitSeconds: number;
}

/**
 * @example
 * observer.requestSent("/v3/jobs/query", "200");
 * observer.retried("5xx");
 * observer.sliceFinished("20261121T030000Z", "committed", 12.5);
 */
export interface RunObserver {
  /** A request left for the service, its token issuer or a download link; `status` is the HTTP status or "network". */
  requestSent(operation: string, status: string): void;
  retried(reason: RetryReason): void;
  /** The daily requests the service said remain. */
  quotaReported(remaining: number): void;
  /** The requests the client now lets wait for the service's answer at once (adaptive concurrency). */
  concurrencyChanged(limit: number): void;
  /** A slice ended; skipped slices (committed by an earlier run) take no time. */
  sliceFinished(slice: string, outcome: SliceOutcome, durationSeconds?: number): void;
  /** A batch export was waited for, from the request until every partition was ready. */
  batchWaited(seconds: number): void;
  /** Records the source yielded (before transforms). */
  recordsRead(count: number): void;
  /** A sink's rows and bytes, committed. `sink` is the index of the sink in the pipeline. */
  recordsWritten(sink: number, rows: number, bytes: number): void;
  /** The quota ledger's numbers changed (a run that shares the quota through one). */
  quotaLedger?(numbers: QuotaLedgerNumbers): void;
}

export const NO_OBSERVER: RunObserver = {
  requestSent: () => undefined,
  retried: () => undefined,
  quotaReported: () => undefined,
  concurrencyChanged: () => undefined,
  sliceFinished: () => undefined,
  batchWaited: () => undefined,
  recordsRead: () => undefined,
  recordsWritten: () => undefined,
};

/** Sends every report to each observer (the metrics and the run report's tally). */
export function combineObservers(...observers: readonly RunObserver[]): RunObserver {
  return {
    requestSent: (operation, status) => observers.forEach((o) => o.requestSent(operation, status)),
    retried: (reason) => observers.forEach((o) => o.retried(reason)),
    quotaReported: (remaining) => observers.forEach((o) => o.quotaReported(remaining)),
    concurrencyChanged: (limit) => observers.forEach((o) => o.concurrencyChanged(limit)),
    sliceFinished: (slice, outcome, seconds) =>
      observers.forEach((o) => o.sliceFinished(slice, outcome, seconds)),
    batchWaited: (seconds) => observers.forEach((o) => o.batchWaited(seconds)),
    recordsRead: (count) => observers.forEach((o) => o.recordsRead(count)),
    recordsWritten: (sink, rows, bytes) => observers.forEach((o) => o.recordsWritten(sink, rows, bytes)),
    quotaLedger: (numbers) => observers.forEach((o) => o.quotaLedger?.(numbers)),
  };
}
