// The metrics of one run, in a prom-client registry of its own: every series carries `pipeline` (and
// `shard` when sharded). Served on --metrics-port and pushed to a Pushgateway; dashboards and alerts
// in deploy/ are written against these names.
import { Counter, Gauge, Histogram, Registry } from "prom-client";
import type { RetryReason, RunObserver, SliceOutcome } from "../core/run-observer.js";
import { ledgerMetrics } from "./ledger-metrics.js";

const RETRY_REASONS: readonly RetryReason[] = [
  "429",
  "5xx",
  "network",
  "token",
  "context_lost",
  "reconciliation",
];
const SLICE_OUTCOMES: readonly SliceOutcome[] = ["committed", "skipped", "failed", "stopped"];
/** Slices last seconds to hours; batch exports wait minutes. */
const DURATION_BUCKETS = [1, 5, 15, 30, 60, 120, 300, 600, 1800, 3600, 7200];

interface RunMetricsOptions {
  pipeline: string;
  /** `i-of-n` when the run is one shard of a backfill. */
  shard?: string;
  /** The data kind the source reads (logs, jobs, ...). */
  kind: string;
  /** Seconds since the epoch; tests inject it. */
  now?: () => number;
}

export interface RunMetrics {
  readonly registry: Registry;
  readonly observer: RunObserver;
  /** Slices this process has to do, skipped ones included. */
  setSlicesPlanned(count: number): void;
  /** The run's slices the output holds as open once it ended (committed before they settled). */
  setOpenSlices(count: number): void;
  /** A re-check found the service now counts fewer records in `count` committed slices (files kept). */
  recheckDecreased(count: number): void;
  /** Sets the run's duration and exit code; a complete run also its success timestamp. */
  finish(exitCode: number): void;
}

export function createRunMetrics(options: RunMetricsOptions): RunMetrics {
  const now = options.now ?? ((): number => Date.now() / 1000);
  const registry = new Registry();
  registry.setDefaultLabels({
    pipeline: options.pipeline,
    ...(options.shard === undefined ? {} : { shard: options.shard }),
  });
  const registers = [registry];
  const startedAt = now();
  let finishedAt: number | undefined;

  const recordsRead = new Counter({
    name: "mdq_export_records_read_total",
    help: "Records the source read from the service (before transforms).",
    labelNames: ["kind"],
    registers,
  });
  const recordsWritten = new Counter({
    name: "mdq_export_records_written_total",
    help: "Rows committed by a sink (its index in the pipeline); over sinks, the rows of the manifests.",
    labelNames: ["sink"],
    registers,
  });
  const bytesWritten = new Counter({
    name: "mdq_export_bytes_written_total",
    help: "Bytes committed by a sink (its index in the pipeline).",
    labelNames: ["sink"],
    registers,
  });
  const requests = new Counter({
    name: "mdq_export_requests_total",
    help: "Requests sent to the service, its token issuer and download links, by operation and HTTP status.",
    labelNames: ["operation", "status"],
    registers,
  });
  const retries = new Counter({
    name: "mdq_export_retries_total",
    help: "Requests or slices sent again, by reason.",
    labelNames: ["reason"],
    registers,
  });
  const slices = new Counter({
    name: "mdq_export_slices_total",
    help: "Slices that ended, by outcome: committed, skipped (done by an earlier run), failed (gave up) or stopped (cut short by a signal, a lost lock or the quota).",
    labelNames: ["outcome"],
    registers,
  });
  const sliceDuration = new Histogram({
    name: "mdq_export_slice_duration_seconds",
    help: "Time from a slice's start to its commit, retries included.",
    buckets: DURATION_BUCKETS,
    registers,
  });
  const batchWait = new Histogram({
    name: "mdq_export_batch_wait_seconds",
    help: "Time from a batch export request until every partition was ready.",
    buckets: DURATION_BUCKETS,
    registers,
  });
  new Gauge({
    name: "mdq_export_run_start_timestamp_seconds",
    help: "When the run started, in seconds since the epoch.",
    registers,
  }).set(startedAt);
  new Gauge({
    name: "mdq_export_run_duration_seconds",
    help: "Seconds the run has lasted so far, or lasted in all once it ended.",
    registers,
    collect() {
      this.set((finishedAt ?? now()) - startedAt);
    },
  });
  const slicesPlanned = new Gauge({
    name: "mdq_export_slices_planned",
    help: "Slices this process has to do (its shard's), those done by an earlier run included.",
    registers,
  });
  const decreases = new Counter({
    name: "mdq_export_recheck_decreases_total",
    help: "Committed slices a re-check found the service now has fewer records in than were exported; their files are kept.",
    registers,
  });
  // Series that would read 0 before they mean anything are created when first set: a quota of 0 would
  // page someone, and a success timestamp of 0 pushed by a failed run would replace the last real one.
  let quota: Gauge | undefined;
  // Set when the client is made: a run that failed before it had a client has no concurrency.
  let concurrency: Gauge | undefined;
  // Known only once the run has an outcome: a run that failed before it planned has no slices to count.
  let openSlices: Gauge | undefined;
  // Only a run that shares the quota through the ledger has these.
  let ledger: ReturnType<typeof ledgerMetrics> | undefined;

  recordsRead.inc({ kind: options.kind }, 0);
  for (const reason of RETRY_REASONS) retries.inc({ reason }, 0);
  for (const outcome of SLICE_OUTCOMES) slices.inc({ outcome }, 0);

  const observer: RunObserver = {
    requestSent: (operation, status) => requests.inc({ operation, status }),
    retried: (reason) => retries.inc({ reason }),
    quotaReported(remaining) {
      quota ??= new Gauge({
        name: "mdq_export_quota_remaining",
        help: "Daily requests the service last said remain.",
        registers,
      });
      quota.set(remaining);
    },
    concurrencyChanged(limit) {
      concurrency ??= new Gauge({
        name: "mdq_export_concurrency",
        help: "Requests the client lets wait for the service's answer at once: limits.concurrency, lower while the service pushes back (429 throttles, 503, slower answers).",
        registers,
      });
      concurrency.set(limit);
    },
    sliceFinished(_slice, outcome, durationSeconds) {
      slices.inc({ outcome });
      if (durationSeconds !== undefined) sliceDuration.observe(durationSeconds);
    },
    batchWaited: (seconds) => batchWait.observe(seconds),
    recordsRead: (count) => recordsRead.inc({ kind: options.kind }, count),
    recordsWritten(sink, rows, bytes) {
      recordsWritten.inc({ sink: String(sink) }, rows);
      bytesWritten.inc({ sink: String(sink) }, bytes);
    },
    quotaLedger(numbers) {
      ledger ??= ledgerMetrics(registers);
      ledger(numbers);
    },
  };

  return {
    registry,
    observer,
    setSlicesPlanned: (count) => slicesPlanned.set(count),
    setOpenSlices(count) {
      openSlices ??= new Gauge({
        name: "mdq_export_open_slices",
        help: "Slices of the run left open: committed before now minus window.settle, so not complete; the next run redoes them until they settle.",
        registers,
      });
      openSlices.set(count);
    },
    recheckDecreased: (count) => decreases.inc(count),
    finish(exitCode) {
      if (finishedAt !== undefined) return;
      finishedAt = now();
      new Gauge({
        name: "mdq_export_run_exit_code",
        help: "The exit code of the run that ended: 0 done, 1 failed, 75 stopped but resumable.",
        registers,
      }).set(exitCode);
      if (exitCode === 0) {
        new Gauge({
          name: "mdq_export_last_success_timestamp_seconds",
          help: "When a run last completed its whole window, in seconds since the epoch.",
          registers,
        }).set(finishedAt);
      }
    },
  };
}
