// `mdq-export run PIPELINE`: export the window, slice by slice, resuming what an earlier run committed.
import { loadPipeline } from "../../config/load-pipeline.js";
import { OBSERVABILITY_OPTIONS } from "../../observability/observability-settings.js";
import { createRunObservability } from "../../observability/run-observability.js";
import { runPipeline } from "../../pipeline/run/run-pipeline.js";
import { resolveShard } from "../../pipeline/plan/shard.js";
import { LOG_FORMAT_OPTION, commandLogger } from "../command-logger.js";
import {
  PIPELINE_OPTIONS,
  parseCommandArgs,
  pipelineTime,
  requirePipelineFile,
  showedHelp,
} from "../command-options.js";
import { EXIT } from "../io.js";
import type { Command } from "../io.js";
import { chooseProgressInterval, startProgress } from "../progress.js";
import { exitCodeOf } from "../report-error.js";
import { formatRunSummary } from "../run-summary.js";
import { RUN_USAGE } from "./run-usage.js";
import { formatRecheck } from "../../pipeline/output-state/recheck.js";
import { formatDuration } from "../../config/duration.js";
import type { PipelineOutcome } from "../../pipeline/run/run-outcome.js";

const RUN_OPTIONS = {
  ...PIPELINE_OPTIONS,
  ...LOG_FORMAT_OPTION,
  ...OBSERVABILITY_OPTIONS,
  force: { type: "boolean" },
  recheck: { type: "boolean" },
  "break-lock": { type: "boolean" },
  shard: { type: "string" },
  "shard-count": { type: "string" },
  "progress-interval": { type: "string" },
} as const;

/** The line that says which slices are open: written, not complete, redone by the next run. */
function formatOpenSlices(outcome: PipelineOutcome, settleMs: number): string {
  const open = outcome.slices.filter((slice) => slice.open).map((slice) => slice.id);
  if (open.length === 0) return "";
  return (
    `Open: ${open.length} slice${open.length === 1 ? "" : "s"} end${open.length === 1 ? "s" : ""} after now minus window.settle (${settleMs === 0 ? "0s" : formatDuration(settleMs)}): ` +
    `${open.join(", ")}; written, not yet complete, and redone by the next run until settled\n`
  );
}

export const runCommand: Command = async (argv, io) => {
  const { values, positionals } = parseCommandArgs(argv, RUN_OPTIONS, RUN_USAGE);
  if (showedHelp(values, io, RUN_USAGE)) return EXIT.ok;
  const file = requirePipelineFile(positionals, RUN_USAGE);
  const time = pipelineTime(values);
  const log = commandLogger(values, io, io.isTTY ? "warn" : "info");
  const shard = resolveShard(values.shard, values["shard-count"], io.env);
  const observability = createRunObservability(values, io.env, log, io.stdout, io.components);
  const release = io.routeDependencyMessages?.((message) => log.warn(message, "A dependency warned."));
  let progress: { stop(): void } | undefined;
  try {
    const pipeline = await loadPipeline(file, {
      env: io.env,
      components: io.components,
      ...time,
      onWarning: observability.loadWarning,
    });
    const progressMs = chooseProgressInterval(values["progress-interval"], pipeline.limits.progress_interval);
    const observed = await observability.start(pipeline, shard);
    const runLog = observed.options.log;
    const outcome = await runPipeline(pipeline, {
      ...observed.options,
      signal: io.signal,
      stdout: io.stdout,
      components: io.components,
      shard,
      force: values.force === true,
      recheck: values.recheck === true,
      breakLock: values["break-lock"] === true,
      pipelineFile: file,
      quotaLedger: { envUrl: io.env["MDQ_QUOTA_LEDGER"] },
      events: observed.events({
        started: (run) => {
          progress = startProgress(run.progress, {
            tty: io.isTTY,
            stream: io.stderr,
            log: runLog,
            intervalMs: progressMs,
            ...(io.progressTimers === undefined ? {} : { timers: io.progressTimers }),
          });
        },
      }),
    }).finally(() => progress?.stop());
    const stdoutTaken = observability.reportsToStdout || outcome.destinations.some((d) => d.stream);
    const recheck =
      outcome.rechecked === undefined ? "" : formatRecheck(outcome.rechecked, outcome.decreased);
    (stdoutTaken ? io.stderr : io.stdout).write(
      formatRunSummary(outcome) + recheck + formatOpenSlices(outcome, pipeline.source.window.settle_ms),
    );
    if (outcome.status === "failed") throw outcome.error;
    return await observability.finish(outcome.status === "complete" ? EXIT.ok : EXIT.resumable);
  } catch (error) {
    await observability.finish(exitCodeOf(error), error);
    throw error;
  } finally {
    release?.();
  }
};
