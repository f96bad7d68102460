// The metrics of one run, in a prom-client registry of its own: every series carries `pipeline` (and
// `shard` when sharded). Served on --metrics-port and pushed to a Pushgateway; dashboards and alerts
// in deploy/ are written against these names.
import { Counter, Gauge, Histogram, Registry } from "prom-client";
import { RETRY_REASONS, SLICE_OUTCOMES } from "../core/run-observer.js";
import type { QuotaLedgerNumbers, RunObserver } from "../core/run-observer.js";

/**
 * The quota ledger's series of a run, by the number of QuotaLedgerNumbers each shows: cumulative
 * values, set after each round trip to the ledger. Each carries the run's `priority` beside its
 * `pipeline`, so a dashboard shows what every priority of the fleet reserved and spent
 * (deploy/grafana/mdq-export-fleet-dashboard.json).
 */
const LEDGER_GAUGES: Readonly<Record<Exclude<keyof QuotaLedgerNumbers, "priority">, [string, string]>> = {
  remaining: [
    "mdq_export_quota_ledger_remaining",
    "Daily requests the quota ledger says the fleet has left (the service's last report, less what runs reserved since).",
  ],
  reserved: ["mdq_export_quota_ledger_reserved", "Requests this run reserved from the quota ledger so far."],
  spent: [
    "mdq_export_quota_ledger_spent",
    "Requests this run spent (answered) of those it reserved from the quota ledger.",
  ],
  roundTrips: [
    "mdq_export_quota_ledger_round_trips",
    "Round trips this run cost the quota ledger: every statement sent (each step one: opening, joining, its claim, blocks, lease renewals, the end) and every connection opened.",
  ],
  waitSeconds: [
    "mdq_export_quota_wait_seconds",
    "Time this run's requests spent waiting for the quota ledger's permit.",
  ],
};
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

  const counter = (name: string, help: string, labelNames: string[] = []): Counter =>
    new Counter({ name, help, labelNames, registers });
  const gauge = (name: string, help: string, labelNames: string[] = []): Gauge =>
    new Gauge({ name, help, labelNames, registers });
  const histogram = (name: string, help: string): Histogram =>
    new Histogram({ name, help, buckets: DURATION_BUCKETS, registers });
  // Series that would read 0 before they mean anything are created when first set: a quota of 0 would
  // page someone, and a success timestamp of 0 pushed by a failed run would replace the last real one.
  const setWhenKnown = (name: string, help: string): ((value: number) => void) => {
    let series: Gauge | undefined;
    return (value) => (series ??= gauge(name, help)).set(value);
  };

  const recordsRead = counter(
    "mdq_export_records_read_total",
    "Records the source read from the service (before transforms).",
    ["kind"],
  );
  const recordsWritten = counter(
    "mdq_export_records_written_total",
    "Rows committed by a sink (its index in the pipeline); over sinks, the rows of the manifests.",
    ["sink"],
  );
  const bytesWritten = counter(
    "mdq_export_bytes_written_total",
    "Bytes committed by a sink (its index in the pipeline).",
    ["sink"],
  );
  const requests = counter(
    "mdq_export_requests_total",
    "Requests sent to the service, its token issuer and download links, by operation and HTTP status.",
    ["operation", "status"],
  );
  const retries = counter("mdq_export_retries_total", "Requests or slices sent again, by reason.", [
    "reason",
  ]);
  const slices = counter(
    "mdq_export_slices_total",
    "Slices that ended, by outcome: committed, skipped (done by an earlier run), failed (gave up) or stopped (cut short by a signal, a lost lock or the quota).",
    ["outcome"],
  );
  const sliceDuration = histogram(
    "mdq_export_slice_duration_seconds",
    "Time from a slice's start to its commit, retries included.",
  );
  const batchWait = histogram(
    "mdq_export_batch_wait_seconds",
    "Time from a batch export request until every partition was ready.",
  );
  gauge("mdq_export_run_start_timestamp_seconds", "When the run started, in seconds since the epoch.").set(
    startedAt,
  );
  new Gauge({
    name: "mdq_export_run_duration_seconds",
    help: "Seconds the run has lasted so far, or lasted in all once it ended.",
    registers,
    collect() {
      this.set((finishedAt ?? now()) - startedAt);
    },
  });
  const slicesPlanned = gauge(
    "mdq_export_slices_planned",
    "Slices this process has to do (its shard's), those done by an earlier run included.",
  );
  const decreases = counter(
    "mdq_export_recheck_decreases_total",
    "Committed slices a re-check found the service now has fewer records in than were exported; their files are kept.",
  );
  const quota = setWhenKnown("mdq_export_quota_remaining", "Daily requests the service last said remain.");
  // Set when the client is made: a run that failed before it had a client has no concurrency.
  const concurrency = setWhenKnown(
    "mdq_export_concurrency",
    "Requests the client lets wait for the service's answer at once: limits.concurrency, lower while the service pushes back (429 throttles, 503, slower answers).",
  );
  // Known only once the run has an outcome: a run that failed before it planned has no slices to count.
  const openSlices = setWhenKnown(
    "mdq_export_open_slices",
    "Slices of the run left open: committed before now minus window.settle, so not complete; the next run redoes them until they settle.",
  );
  // Only a run that shares the quota through the ledger has these, one per number, by its priority.
  let ledger: [keyof typeof LEDGER_GAUGES, Gauge][] | undefined;

  recordsRead.inc({ kind: options.kind }, 0);
  for (const reason of RETRY_REASONS) retries.inc({ reason }, 0);
  for (const outcome of SLICE_OUTCOMES) slices.inc({ outcome }, 0);

  const observer: RunObserver = {
    requestSent: (operation, status) => requests.inc({ operation, status }),
    retried: (reason) => retries.inc({ reason }),
    quotaReported: quota,
    concurrencyChanged: concurrency,
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
      ledger ??= Object.entries(LEDGER_GAUGES).map(([key, [name, help]]) => [
        key as keyof typeof LEDGER_GAUGES,
        gauge(name, help, ["priority"]),
      ]);
      for (const [key, series] of ledger) {
        const value = numbers[key];
        if (value !== undefined) series.set({ priority: numbers.priority }, value);
      }
    },
  };

  return {
    registry,
    observer,
    setSlicesPlanned: (count) => slicesPlanned.set(count),
    setOpenSlices: openSlices,
    recheckDecreased: (count) => decreases.inc(count),
    finish(exitCode) {
      if (finishedAt !== undefined) return;
      finishedAt = now();
      gauge(
        "mdq_export_run_exit_code",
        "The exit code of the run that ended: 0 done, 1 failed, 75 stopped but resumable.",
      ).set(exitCode);
      if (exitCode === 0)
        gauge(
          "mdq_export_last_success_timestamp_seconds",
          "When a run last completed its whole window, in seconds since the epoch.",
        ).set(finishedAt);
    },
  };
}
