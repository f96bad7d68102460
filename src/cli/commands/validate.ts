// `mdq-export validate FILE...`: checks pipeline files offline (no request), reporting every problem
// with file, line and column.
import { readFile } from "node:fs/promises";
import { lintPipeline, loadPipeline } from "../../config/load-pipeline.js";
import type { Pipeline } from "../../config/pipeline-schema.js";
import { locate, parseYamlSource } from "../../config/yaml-source.js";
import { readCommittedPin } from "../../warehouse/pipeline-schemas.js";
import { ConfigError, isConfigError } from "../../errors.js";
import type { ConfigIssue } from "../../errors.js";
import { NOW_OPTION, parseCommandArgs, requirePipelineFile, runNow, showedHelp } from "../command-options.js";
import { EXIT } from "../io.js";
import type { Command } from "../io.js";
import { reportError } from "../report-error.js";

const VALIDATE_USAGE = `Usage: mdq-export validate PIPELINE.yaml [PIPELINE.yaml ...]

Checks each pipeline offline: YAML, \${VAR} interpolation, the schema, the service's request rules
(applications, app types, scopes, wildcards, windows, strategies), the fields transforms use, and
each sink's committed pinned schema (schema.pinned). Nothing is requested. Exit code 2 when any file
is invalid.

Options:
  --no-env     lint without the deployment's variables (in CI): an unset \${VAR} is not an error and
               the value it would give is not checked; everything else is
  --now TIME   the instant relative windows are resolved against (ISO 8601 with a zone; default:
               now), as for run: a scheduled date's pipeline is checked as that date's run loads it
  -h, --help   show this help`;

export const validateCommand: Command = async (argv, io) => {
  const { values, positionals } = parseCommandArgs(
    argv,
    { help: { type: "boolean", short: "h" }, "no-env": { type: "boolean" }, ...NOW_OPTION },
    VALIDATE_USAGE,
  );
  if (showedHelp(values, io, VALIDATE_USAGE)) return EXIT.ok;
  // Any number of files, but one at least: none is refused as by every command that takes one.
  if (positionals.length === 0) requirePipelineFile(positionals, VALIDATE_USAGE);
  // One instant for every file, as a scheduler's run of them all would have.
  const now = runNow(values.now);
  let worst: number = EXIT.ok;
  for (const file of positionals) {
    try {
      const options = {
        env: io.env,
        components: io.components,
        now,
        onWarning: (issue: ConfigIssue) =>
          io.stderr.write(`warning: ${file}:${issue.line ?? 1}:${issue.column ?? 1}: ${issue.message}\n`),
      };
      const { pipeline, unset } =
        values["no-env"] === true
          ? await lintPipeline(file, options)
          : { pipeline: await loadPipeline(file, options), unset: [] };
      const about =
        pipeline === undefined
          ? []
          : [
              `${pipeline.name}: ${pipeline.source.kind}, ${pipeline.sinks.length} sink${pipeline.sinks.length === 1 ? "" : "s"}`,
            ];
      for (const index of pipeline?.sinks.keys() ?? []) {
        const pinned = pipeline === undefined ? undefined : await readPin(pipeline, index, file);
        if (pinned !== undefined)
          about.push(`sink ${index + 1} pinned by ${pinned.from}: ${pinned.pin.columns.length} columns`);
      }
      if (unset.length > 0) about.push(`not set, so not checked: ${unset.join(", ")}`);
      io.stdout.write(`${file}: valid (${about.join("; ")})\n`);
    } catch (error) {
      worst = Math.max(worst, reportError(error, io.stderr, false));
    }
  }
  return worst;
};

/** A sink's committed pin, its problem placed at the `pinned:` line of the pipeline file. */
async function readPin(pipeline: Pipeline, index: number, file: string): ReturnType<typeof readCommittedPin> {
  try {
    return await readCommittedPin(pipeline, index, file);
  } catch (error) {
    if (!isConfigError(error)) throw error;
    const source = parseYamlSource(await readFile(file, "utf8"), file);
    const at = locate(source, ["sinks", index, "schema", "pinned"]);
    const issues = error.issues.map((issue) => ({ ...issue, file, ...at }));
    throw new ConfigError(error.message, issues, { cause: error });
  }
}
