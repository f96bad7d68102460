// `mdq-export run PIPELINE`: export the window, slice by slice, resuming what an earlier run committed.
import { loadPipeline } from "../../config/load-pipeline.js";
import { OBSERVABILITY_OPTIONS } from "../../observability/observability-settings.js";
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
import { RUN_USAGE } from "./run-usage.js";
import { formatRecheck } from "../../warehouse/recheck.js";

const RUN_OPTIONS = {
  ...PIPELINE_OPTIONS,
  ...LOG_FORMAT_OPTION,
  ...OBSERVABILITY_OPTIONS,
  force: { type: "boolean" },
  recheck: { type: "boolean" },
  "break-lock": { type: "boolean" },
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
      breakLock: values["break-lock"] === true,
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
