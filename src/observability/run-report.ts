// `--report FILE|-`: one JSON document at the end of a run, with the same keys whatever the outcome
// (done, failed, stopped with exit 75), for schedulers and pipelines that act on a run's result.
// Its schema is documented in docs/operations.md ("Run report"); `report_version` changes with it.
import { replaceReportFile } from "./report-file.js";
import type { TallySnapshot } from "./run-tally.js";

/** 2: slices cut short by a stop (signal, lost lock, quota) are `stopped`, no longer `failed`. */
const REPORT_VERSION = 2;

export type ReportOutcome = "complete" | "stopped" | "failed" | "invalid";

/** One slice of this process's plan, as the run left it. */
export interface SliceReport {
  id: string;
  start: string;
  end: string;
  /**
   * `failed`: gave up (its retries spent, or an error no retry mends); `stopped`: begun, then cut
   * short by the run's stop (a signal, a lost lock, the quota); `pending`: not begun.
   */
  outcome: "committed" | "skipped" | "failed" | "stopped" | "pending";
  duration_seconds: number | null;
  records_read: number | null;
  /** What the service said the slice holds, when it said. */
  expected: number | null;
  rows_written: number | null;
}

export interface SinkReport {
  index: number;
  to: string;
  format: string;
  /** Rows and bytes this run committed. */
  rows: number;
  bytes: number;
  /** Where this run wrote the sink's manifest; null for stdout or when none was written. */
  manifest: string | null;
}

export interface RunReport {
  report_version: number;
  pipeline: string | null;
  run_id: string | null;
  shard: { index: number; count: number } | null;
  outcome: ReportOutcome;
  exit_code: number;
  error: { code: string; message: string } | null;
  started_at: string;
  ended_at: string;
  duration_seconds: number;
  window: { start: string; end: string } | null;
  slices: {
    planned: number;
    committed: number;
    skipped: number;
    failed: number;
    stopped: number;
    pending: number;
  };
  slice_results: SliceReport[];
  records: { read: number; written: number };
  sinks: SinkReport[];
  requests: TallySnapshot["requests"];
  retries: TallySnapshot["retries"];
  quota: TallySnapshot["quota"];
  concurrency: TallySnapshot["concurrency"];
  batch_wait_seconds: number;
  manifests: string[];
  /** Committed slices a re-check found the service now has fewer records in; their files were kept. */
  recheck_decreases: RecheckDecrease[];
  /** Things that did not stop the run but need a person, one sentence each. */
  warnings: string[];
}

export interface RecheckDecrease {
  slice: string;
  /** Records the slice held when it was committed. */
  committed: number;
  /** Records the service counted at the re-check. */
  service: number;
}

export interface RunReportInput {
  pipeline?: string;
  runId?: string;
  shard?: { index: number; count: number };
  exitCode: number;
  error?: { code: string; message: string };
  startedAt: Date;
  endedAt: Date;
  window?: { start: Date; end: Date };
  /** The slices of this process's plan, with what the state knows of the committed ones. */
  slices: readonly Omit<SliceReport, "outcome" | "duration_seconds">[];
  sinks: readonly Omit<SinkReport, "rows" | "bytes">[];
  tally: TallySnapshot;
  recheckDecreases?: readonly RecheckDecrease[];
}

function outcomeOf(exitCode: number): ReportOutcome {
  if (exitCode === 0) return "complete";
  if (exitCode === 75) return "stopped";
  if (exitCode === 2) return "invalid";
  return "failed";
}

export function buildRunReport(input: RunReportInput): RunReport {
  const { tally } = input;
  const sliceResults: SliceReport[] = input.slices.map((slice) => {
    const seen = tally.slices[slice.id];
    return {
      ...slice,
      outcome: seen?.outcome ?? "pending",
      duration_seconds: seen?.duration_seconds ?? null,
    };
  });
  const count = (outcome: SliceReport["outcome"]): number =>
    sliceResults.filter((slice) => slice.outcome === outcome).length;
  const sinks = input.sinks.map((sink) => {
    const written = tally.written.find((entry) => entry.sink === sink.index);
    return { ...sink, rows: written?.rows ?? 0, bytes: written?.bytes ?? 0 };
  });
  return {
    report_version: REPORT_VERSION,
    pipeline: input.pipeline ?? null,
    run_id: input.runId ?? null,
    shard: input.shard ?? null,
    outcome: outcomeOf(input.exitCode),
    exit_code: input.exitCode,
    error: input.error ?? null,
    started_at: input.startedAt.toISOString(),
    ended_at: input.endedAt.toISOString(),
    duration_seconds: (input.endedAt.getTime() - input.startedAt.getTime()) / 1000,
    window:
      input.window === undefined
        ? null
        : { start: input.window.start.toISOString(), end: input.window.end.toISOString() },
    slices: {
      planned: sliceResults.length,
      committed: count("committed"),
      skipped: count("skipped"),
      failed: count("failed"),
      stopped: count("stopped"),
      pending: count("pending"),
    },
    slice_results: sliceResults,
    records: { read: tally.records_read, written: sinks.reduce((sum, sink) => sum + sink.rows, 0) },
    sinks,
    requests: tally.requests,
    retries: tally.retries,
    quota: tally.quota,
    concurrency: tally.concurrency,
    batch_wait_seconds: tally.batch_wait_seconds,
    manifests: sinks.flatMap((sink) => (sink.manifest === null ? [] : [sink.manifest])),
    recheck_decreases: [...(input.recheckDecreases ?? [])],
    warnings: (input.recheckDecreases ?? []).map(
      (decrease) =>
        `${decrease.slice}: the service now has fewer records than were exported (${decrease.committed} → ${decrease.service}); the files are kept`,
    ),
  };
}

/**
 * Writes the report to `target` (a file, replaced atomically, never through a link) or, for `-`, to
 * `stdout`.
 * @example
 * await writeRunReport("report.json", report, io.stdout);
 */
export async function writeRunReport(
  target: string,
  report: RunReport,
  stdout: NodeJS.WritableStream,
): Promise<void> {
  const text = `${JSON.stringify(report, null, 2)}\n`;
  if (target === "-") {
    stdout.write(text);
    return;
  }
  await replaceReportFile(target, text);
}
