// `--report FILE|-`: one JSON document at the end of a run, with the same keys whatever the outcome
// (done, failed, stopped with exit 75), for schedulers and pipelines that act on a run's result.
// Its schema is documented in docs/operations.md ("Run report"); `report_version` changes with it.
import { ERROR_CODES, errorCode, errorMessage } from "../errors.js";
import type { PipelineOutcome } from "../pipeline/run/run-outcome.js";
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

/** What the run knew of itself once its pipeline was loaded. */
export interface ReportedRun {
  pipeline: string;
  runId: string;
  shard: { index: number; count: number } | undefined;
  window: { start: Date; end: Date };
  sinks: readonly { to: string; format: string }[];
}

export interface RunReportInput {
  exitCode: number;
  /** What ended the run, if an error did; else the outcome's. */
  error?: unknown;
  startedAt: Date;
  endedAt: Date;
  tally: TallySnapshot;
  /** Unset when the run failed before its pipeline was loaded. */
  run?: ReportedRun | undefined;
  /** Unset when the run failed before it planned. */
  outcome?: PipelineOutcome | undefined;
}

/** An error as the report gives it: its listed code and its message. */
function errorSummary(error: unknown): { code: string; message: string } {
  return {
    code: errorCode(error) ?? ERROR_CODES.INTERNAL,
    message: errorMessage(error),
  };
}

function outcomeOf(exitCode: number): ReportOutcome {
  if (exitCode === 0) return "complete";
  if (exitCode === 75) return "stopped";
  if (exitCode === 2) return "invalid";
  return "failed";
}

/** The report as written; docs/operations.md ("Run report") documents every key. */
export type RunReport = ReturnType<typeof buildRunReport>;

// Its type is what the literal below builds: the report's keys are stated once.
export function buildRunReport(input: RunReportInput) {
  const { tally, run, outcome } = input;
  const sliceResults: SliceReport[] = (outcome?.slices ?? []).map((slice) => {
    const seen = tally.slices[slice.id];
    const pending = slice.status === "pending";
    return {
      id: slice.id,
      start: slice.start,
      end: slice.end,
      records_read: pending ? null : slice.read,
      expected: slice.expected,
      rows_written: pending ? null : slice.rows,
      outcome: seen?.outcome ?? "pending",
      duration_seconds: seen?.duration_seconds ?? null,
    };
  });
  const count = (outcome: SliceReport["outcome"]): number =>
    sliceResults.filter((slice) => slice.outcome === outcome).length;
  const sinks =
    outcome === undefined || run === undefined
      ? []
      : run.sinks.map((sink, index) => {
          const written = tally.written.find((entry) => entry.sink === index);
          const manifest = outcome.destinations[index]?.manifest ?? null;
          return { index, ...sink, manifest, rows: written?.rows ?? 0, bytes: written?.bytes ?? 0 };
        });
  const decreases = (outcome?.decreased ?? []).map((change) => ({
    slice: change.slice.id,
    committed: change.committed,
    service: change.service,
  }));
  const error = input.error ?? outcome?.error;
  return {
    report_version: REPORT_VERSION,
    pipeline: run?.pipeline ?? null,
    run_id: run?.runId ?? null,
    shard: run?.shard ?? null,
    outcome: outcomeOf(input.exitCode),
    exit_code: input.exitCode,
    error: error === undefined ? null : errorSummary(error),
    started_at: input.startedAt.toISOString(),
    ended_at: input.endedAt.toISOString(),
    duration_seconds: (input.endedAt.getTime() - input.startedAt.getTime()) / 1000,
    window:
      run === undefined ? null : { start: run.window.start.toISOString(), end: run.window.end.toISOString() },
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
    recheck_decreases: decreases,
    warnings: decreases.map(
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
