// `mdq-export ddl PIPELINE --dialect D`: the statement that makes a sink's output a table, from its
// schema (as the next run would write it) and its path template.
import { ConfigError } from "../../errors.js";
import { createLogger } from "../../logger.js";
import { FORMATS } from "../../pipeline/registry.js";
import { snakeCaseName } from "../../warehouse/column-names.js";
import { DIALECTS, generateDdl } from "../../warehouse/ddl/ddl.js";
import type { Dialect } from "../../warehouse/ddl/ddl.js";
import { tableLayout } from "../../warehouse/ddl/table-layout.js";
import { DEFAULT_PATH_TEMPLATE } from "../../sinks/path-template.js";
import {
  PIPELINE_OPTIONS,
  parseCommandArgs,
  parseLogLevel,
  requirePipelineFile,
} from "../command-options.js";
import { EXIT } from "../io.js";
import type { Command } from "../io.js";
import { loadSinkSchemas, sinkIndex } from "../load-sink-schemas.js";

export const DDL_USAGE = `Usage: mdq-export ddl PIPELINE.yaml --dialect duckdb|athena|bigquery [options]

Prints the statement that makes a sink's output a table: DuckDB a view over read_parquet/read_json,
Athena/Glue CREATE EXTERNAL TABLE with partition projection, BigQuery an external table; columns
with the pinned types, Hive partition columns typed (dt=DATE, hour=integer). Writes nothing.

Options:
  --dialect D       duckdb, athena or bigquery (required)
  --sink N          the sink (1 = the first, the default)
  --table NAME      table or view name (default: the pipeline's name in snake_case)
  --location URI    where the files are read from (default: the sink's to; BigQuery reads gs://)
  --dataset NAME    BigQuery dataset (default mdq)
  --since DATE      first date of Athena's partition projection (default: the window's start)
  -h, --help        show this help`;

function invalid(path: string, message: string): ConfigError {
  return new ConfigError(message, [{ path, message }]);
}

export const ddlCommand: Command = async (argv, io) => {
  const { values, positionals } = parseCommandArgs(
    argv,
    {
      ...PIPELINE_OPTIONS,
      dialect: { type: "string" },
      sink: { type: "string" },
      table: { type: "string" },
      location: { type: "string" },
      dataset: { type: "string" },
      since: { type: "string" },
    },
    DDL_USAGE,
  );
  if (values.help === true) {
    io.stdout.write(`${DDL_USAGE}\n`);
    return EXIT.ok;
  }
  const file = requirePipelineFile(positionals, DDL_USAGE);
  const dialect = values.dialect;
  if (dialect === undefined || !(DIALECTS as readonly string[]).includes(dialect))
    throw invalid("--dialect", `--dialect: "${dialect ?? ""}" is not one of ${DIALECTS.join(", ")}`);
  const since = values.since === undefined ? undefined : new Date(`${values.since}T00:00:00Z`);
  if (since !== undefined && Number.isNaN(since.getTime()))
    throw invalid("--since", `--since: "${values.since ?? ""}" is not a date (YYYY-MM-DD)`);
  const log = createLogger({ level: parseLogLevel(values["log-level"], "warn"), destination: io.stderr });
  const { pipeline, schemas } = await loadSinkSchemas(file, io, log);
  const index = sinkIndex(values.sink, pipeline) ?? 0;
  const sink = pipeline.sinks[index];
  const schema = schemas[index];
  if (sink === undefined || schema === undefined) return EXIT.invalid;
  if (sink.to === "-") throw invalid("--sink", `sink ${index + 1} writes to stdout; no table reads it`);
  const format = FORMATS[sink.format];
  let ddl: string;
  try {
    ddl = generateDdl(
      dialect as Dialect,
      tableLayout({
        table: values.table ?? snakeCaseName(pipeline.name),
        columns: schema.columns,
        format: sink.format === "parquet" ? "parquet" : "ndjson",
        gzip: sink["gzip"] === true,
        extension: format.extension(format.settings(sink)),
        location: values.location ?? sink.to,
        pathTemplate: sink.path ?? DEFAULT_PATH_TEMPLATE,
        since: since ?? pipeline.source.window.start,
      }),
      { dataset: values.dataset ?? "mdq" },
    );
  } catch (error) {
    throw invalid(`sinks.${index}`, `ddl --dialect ${dialect}: ${(error as Error).message}`);
  }
  io.stdout.write(ddl);
  return EXIT.ok;
};
