// `mdq-export plan PIPELINE`: what a run would do — slices, retrieval per slice, expected records and
// requests against the quota — without exporting anything.
import { loadPipeline } from "../../config/load-pipeline.js";
import { prepareRun } from "../../pipeline/run/prepare-run.js";
import { checkOwnedDestinations, committedInOutput } from "../../pipeline/run/destinations.js";
import { resolveShard } from "../../pipeline/plan/shard.js";
import {
  PIPELINE_OPTIONS,
  parseCommandArgs,
  pipelineTime,
  requirePipelineFile,
  showedHelp,
} from "../command-options.js";
import { LOG_FORMAT_OPTION, commandLogger } from "../command-logger.js";
import { EXIT } from "../io.js";
import type { Command } from "../io.js";
import { formatPlan } from "../plan-report.js";
import { readSinkSchemas } from "../load-sink-schemas.js";
import { ERROR_CODES, hasCode, isConfigError } from "../../errors.js";
import { driftLines } from "../../warehouse/schema-drift.js";

const PLAN_USAGE = `Usage: mdq-export plan PIPELINE.yaml [options]

Plans the run without exporting: asks the service for the kind's mappings and (for strategy or
slice auto) one date histogram of the window that counts every slice at the slice's own interval,
then prints the slices, the retrieval style of each, the records expected, which slices are still
open (they end after now minus window.settle), which ones earlier runs committed (read from the
state beside the first sink that keeps files, without writing it; a run skips them unless --force),
the requests the run will cost, the quota left, and how long the run will take: its requests one
after the other per slice, limits.concurrency slices at once, at the round trip plan measured on its
own requests.

Options:
  --start TIME, --end TIME   replace the window (as for run)
  --now TIME                 the instant relative windows and open slices are decided against
                             (ISO 8601 with a zone; default: now), as for run
  --shard I/N                plan one shard only
  --force                    plan as run --force would: every slice of the window is to run,
                             committed or not (the state is not read)
  --json                     print the plan as JSON
  --log-level LEVEL          default warn (MDQ_LOG_LEVEL)
  --log-format F             json or pretty (default: pretty on a terminal, else json; MDQ_LOG_FORMAT)
  -h, --help                 show this help`;

export const planCommand: Command = async (argv, io) => {
  const { values, positionals } = parseCommandArgs(
    argv,
    {
      ...PIPELINE_OPTIONS,
      ...LOG_FORMAT_OPTION,
      json: { type: "boolean" },
      force: { type: "boolean" },
      shard: { type: "string" },
      "shard-count": { type: "string" },
    },
    PLAN_USAGE,
  );
  if (showedHelp(values, io, PLAN_USAGE)) return EXIT.ok;
  const file = requirePipelineFile(positionals, PLAN_USAGE);
  const log = commandLogger(values, io, "warn");
  const shard = resolveShard(values.shard, values["shard-count"], io.env);
  const pipeline = await loadPipeline(file, {
    env: io.env,
    components: io.components,
    ...pipelineTime(values),
    onWarning: (issue) => log.warn({ path: issue.path, line: issue.line }, issue.message),
  });
  const prepared = await prepareRun(pipeline, {
    log,
    signal: io.signal,
    shard,
    alwaysProbe: true,
    components: io.components,
  });
  // With --json, stdout carries the plan only: what is said about it goes to stderr.
  const notes = values.json === true ? io.stderr : io.stdout;
  try {
    // What earlier runs committed, as the run would read it; a state the run would refuse stops here.
    let committed;
    try {
      // --force reads no state, but a forced run on another pipeline's output is refused all the same.
      if (values.force !== true) committed = await committedInOutput(prepared);
      else await checkOwnedDestinations(prepared);
    } catch (error) {
      const refused = isConfigError(error) || hasCode(error, ERROR_CODES.OUTPUT_OWNED);
      if (!refused || !(error instanceof Error)) throw error;
      io.stdout.write(formatPlan(prepared, values.json === true));
      notes.write(`A run would stop: ${error.message}\n`);
      return EXIT.invalid;
    }
    io.stdout.write(formatPlan(prepared, values.json === true, committed));
    // The drift from each sink's pinned schema, before anything is written.
    let drift: string[];
    try {
      const schemas = await readSinkSchemas(prepared.pipeline, file, prepared.sourceColumns, io);
      drift = schemas.flatMap((schema) =>
        driftLines(schema.changes).map((line) => `${schema.where}: ${line}`),
      );
    } catch (error) {
      if (!hasCode(error, ERROR_CODES.SCHEMA_DRIFT) || !(error instanceof Error)) throw error;
      notes.write(`Schema drift the policy refuses: ${error.message}\n`);
      return EXIT.failed;
    }
    if (drift.length > 0) notes.write(`Schema drift:\n${drift.map((line) => `  ${line}`).join("\n")}\n`);
    const max = prepared.pipeline.limits.max_requests;
    const estimate = prepared.plan.estimatedRequests;
    return max !== undefined && estimate > max ? EXIT.invalid : EXIT.ok;
  } finally {
    await prepared.session.close();
  }
};
