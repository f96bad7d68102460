// `mdq-export schema PIPELINE`: each sink's output schema (column, type, nullability, source field)
// as the next run would write it, with the drift from its pin; --json prints the pin document.
import { formatPinnedSchema } from "../../warehouse/pinned-schema.js";
import { driftLines } from "../../warehouse/schema-drift.js";
import { escapedName } from "../../warehouse/show-name.js";
import type { ResolvedSinkSchema } from "../../warehouse/pipeline-schemas.js";
import {
  PIPELINE_OPTIONS,
  parseCommandArgs,
  pipelineTime,
  requirePipelineFile,
  showedHelp,
} from "../command-options.js";
import { EXIT } from "../io.js";
import type { Command } from "../io.js";
import { loadSinkSchemas, sinkIndex } from "../load-sink-schemas.js";

const SCHEMA_USAGE = `Usage: mdq-export schema PIPELINE.yaml [--sink N] [--json]

Prints each sink's output schema after the transforms: column, type, nullability and the service's
field it comes from, compared with the schema pinned by the first run (or committed next to the
pipeline) under the sink's drift policy. Asks the service for the kind's mappings only; writes nothing.

Options:
  --sink N      only sink N (1 = the first)
  --json        print the pinned-schema document of the sink (to commit next to the pipeline and
                reference with schema.pinned)
  --start TIME, --end TIME
                replace the window (as for run; the schema does not depend on it, the checks of
                the pipeline do)
  --now TIME    the instant relative windows are resolved against (ISO 8601 with a zone;
                default: now), as for run
  -h, --help    show this help

Exit codes: 0 done, 1 a drift the policy refuses, 2 invalid pipeline or arguments.`;

/** Column names and sources as the service sent them may hold control characters: shown escaped. */
function formatSink(schema: ResolvedSinkSchema): string {
  const names = schema.columns.map((column) => escapedName(column.name));
  const width = names.reduce((widest, name) => Math.max(widest, name.length), 6);
  const lines = [
    `${schema.where}: ${schema.pinnedFrom === undefined ? "not pinned yet (the first run pins it)" : `pinned in ${schema.pinnedFrom}`}`,
    `  ${"column".padEnd(width)}  ${"type".padEnd(9)}  ${"nullable".padEnd(8)}  source`,
    ...schema.columns.map(
      (column, index) =>
        `  ${(names[index] ?? "").padEnd(width)}  ${column.type.padEnd(9)}  ${(column.nullable ? "yes" : "no").padEnd(8)}  ${column.source === null ? "(added by a transform)" : escapedName(column.source)}`,
    ),
    ...driftLines(schema.changes).map((line) => `  drift: ${line}`),
  ];
  return `${lines.join("\n")}\n`;
}

export const schemaCommand: Command = async (argv, io) => {
  const { values, positionals } = parseCommandArgs(
    argv,
    { ...PIPELINE_OPTIONS, sink: { type: "string" }, json: { type: "boolean" } },
    SCHEMA_USAGE,
  );
  if (showedHelp(values, io, SCHEMA_USAGE)) return EXIT.ok;
  const file = requirePipelineFile(positionals, SCHEMA_USAGE);
  const { pipeline, schemas } = await loadSinkSchemas(file, io, values["log-level"], pipelineTime(values));
  const only = sinkIndex(values.sink, pipeline);
  const chosen = only === undefined ? schemas : schemas.filter((_, index) => index === only);
  if (values.json === true) {
    const [schema] = chosen;
    if (chosen.length !== 1 || schema === undefined) {
      io.stderr.write(`mdq-export schema: --json prints one sink's schema; add --sink N\n`);
      return EXIT.invalid;
    }
    io.stdout.write(formatPinnedSchema(schema.columns));
    return EXIT.ok;
  }
  io.stdout.write(chosen.map(formatSink).join("\n"));
  return EXIT.ok;
};
