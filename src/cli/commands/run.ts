// `mdq-export run PIPELINE`: export the window, slice by slice, resuming what an earlier run committed.
import { loadPipeline } from "../../config/load-pipeline.js";
import { OBSERVABILITY_OPTIONS, OBSERVABILITY_USAGE } from "../../observability/observability-settings.js";
import { createRunObservability } from "../../observability/run-observability.js";
import { runPipeline } from "../../pipeline/run-pipeline.js";
import { resolveShard } from "../../pipeline/shard.js";
import { LOG_FORMAT_OPTION, commandLogger } from "../command-logger.js";
import {
  PIPELINE_OPTIONS,
  parseCommandArgs,
  requirePipelineFile,
  windowOverrides,
} from "../command-options.js";
import { EXIT } from "../io.js";
import type { Command } from "../io.js";
import { startProgress } from "../progress.js";
import { exitCodeOf } from "../report-error.js";
import { formatRunSummary } from "../run-summary.js";
import { formatRecheck } from "../../warehouse/recheck.js";

export const RUN_USAGE = `Usage: mdq-export run PIPELINE.yaml [options]

Exports the pipeline's window. Committed slices of an earlier run are skipped (resume).

Options:
  --start TIME        replace the window's start (ISO 8601, date-math such as now-7d/d, or yesterday)
  --end TIME          replace the window's end
  --force             redo every slice, even committed ones or after the pipeline changed
  --recheck           re-count the committed slices with one date histogram and export again
                      those whose count changed (late data); with recheck.last_days also the
                      days before the window
  --shard I/N         run shard I of N (every N-th slice); see also --shard-count
  --shard-count N     the number of shards, with the index from JOB_COMPLETION_INDEX or
                      AWS_BATCH_JOB_ARRAY_INDEX (or MDQ_SHARD_COUNT)
  --log-level LEVEL   trace, debug, info, warn, error, silent (default: info; warn on a terminal;
                      MDQ_LOG_LEVEL)
${OBSERVABILITY_USAGE}
  --debug             print the cause chain of an error
  -h, --help          show this help

Exit codes: 0 done, 1 failed, 2 invalid pipeline or arguments, 75 stopped but resumable.`;

const RUN_OPTIONS = {
  ...PIPELINE_OPTIONS,
  ...LOG_FORMAT_OPTION,
  ...OBSERVABILITY_OPTIONS,
  force: { type: "boolean" },
  recheck: { type: "boolean" },
  shard: { type: "string" },
  "shard-count": { type: "string" },
} as const;

export const runCommand: Command = async (argv, io) => {
  const { values, positionals } = parseCommandArgs(argv, RUN_OPTIONS, RUN_USAGE);
  if (values.help === true) {
    io.stdout.write(`${RUN_USAGE}\n`);
    return EXIT.ok;
  }
  const file = requirePipelineFile(positionals, RUN_USAGE);
  const log = commandLogger(values, io, io.isTTY ? "warn" : "info");
  const shard = resolveShard(values.shard, values["shard-count"], io.env);
  const observability = createRunObservability(values, io.env, log, io.stdout);
  const release = io.routeDependencyMessages?.((message) => log.warn(message, "A dependency warned."));
  let progress: { stop(): void } | undefined;
  try {
    const pipeline = await loadPipeline(file, {
      env: io.env,
      overrides: windowOverrides(values),
      onWarning: observability.loadWarning,
    });
    const observed = await observability.start(pipeline, shard);
    const runLog = observed.options.log;
    const outcome = await runPipeline(pipeline, {
      ...observed.options,
      signal: io.signal,
      stdout: io.stdout,
      shard,
      force: values.force === true,
      recheck: values.recheck === true,
      pipelineFile: file,
      events: observed.events({
        started: (run) => {
          progress = startProgress(run.progress, { tty: io.isTTY, stream: io.stderr, log: runLog });
        },
      }),
    }).finally(() => progress?.stop());
    const stdoutTaken = observability.reportsToStdout || outcome.destinations.some((d) => d.stream);
    const recheck = outcome.rechecked === undefined ? "" : formatRecheck(outcome.rechecked);
    (stdoutTaken ? io.stderr : io.stdout).write(formatRunSummary(outcome) + recheck);
    if (outcome.status === "failed") throw outcome.error;
    return await observability.finish(outcome.status === "complete" ? EXIT.ok : EXIT.resumable);
  } catch (error) {
    await observability.finish(exitCodeOf(error), error);
    throw error;
  } finally {
    release?.();
  }
};
