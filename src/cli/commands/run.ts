// `mdq-export run PIPELINE`: export the window, slice by slice, resuming what an earlier run committed.
import { loadPipeline } from "../../config/load-pipeline.js";
import { createLogger } from "../../logger.js";
import { runPipeline } from "../../pipeline/run-pipeline.js";
import { resolveShard } from "../../pipeline/shard.js";
import {
  PIPELINE_OPTIONS,
  parseCommandArgs,
  parseLogLevel,
  requirePipelineFile,
  windowOverrides,
} from "../command-options.js";
import { EXIT } from "../io.js";
import type { Command } from "../io.js";
import { startProgress } from "../progress.js";
import type { ProgressReporter } from "../progress.js";
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
  --log-level LEVEL   trace, debug, info, warn, error, silent (default: info; warn on a terminal)
  --debug             print the cause chain of an error
  -h, --help          show this help

Exit codes: 0 done, 1 failed, 2 invalid pipeline or arguments, 75 stopped but resumable.`;

const RUN_OPTIONS = {
  ...PIPELINE_OPTIONS,
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
  // Log lines go to the command's stderr, so an in-process caller (tests, an embedding tool) gets them too.
  const log = createLogger({
    level: parseLogLevel(values["log-level"], io.isTTY ? "warn" : "info"),
    destination: io.stderr,
  });
  const shard = resolveShard(values.shard, values["shard-count"], io.env);
  const pipeline = await loadPipeline(file, {
    env: io.env,
    overrides: windowOverrides(values),
    onWarning: (issue) => log.warn({ path: issue.path, line: issue.line }, issue.message),
  });
  let progress: ProgressReporter | undefined;
  const outcome = await runPipeline(pipeline, {
    log,
    signal: io.signal,
    stdout: io.stdout,
    shard,
    force: values.force === true,
    recheck: values.recheck === true,
    pipelineFile: file,
    events: {
      started: (run) => {
        progress = startProgress(run.progress, { tty: io.isTTY, stream: io.stderr, log });
      },
    },
  }).finally(() => progress?.stop());
  // stdout carries data when a sink writes to it; the summary then goes to stderr.
  const toStdout = outcome.destinations.some((destination) => destination.stream);
  const recheck = outcome.rechecked === undefined ? "" : formatRecheck(outcome.rechecked);
  (toStdout ? io.stderr : io.stdout).write(formatRunSummary(outcome) + recheck);
  if (outcome.status === "complete") return EXIT.ok;
  if (outcome.status === "stopped") return EXIT.resumable;
  throw outcome.error;
};
