// `mdq-export ddl PIPELINE --dialect D`: the statement that makes a sink's output a table, from its
// schema and its path template. The schema is a committed pin (`--pin FILE` or the sink's
// `schema.pinned`), else the pin the last run wrote beside the output: files only, no service and no
// service credentials. Before any run it asks the service for the kind's mappings, as `schema` does.
import { readFile } from "node:fs/promises";
import { formatOf } from "../../components/environment.js";
import type { Components } from "../../components/environment.js";
import { loadPipeline } from "../../config/load-pipeline.js";
import type { Pipeline } from "../../config/pipeline-schema.js";
import type { Format, TableFiles } from "../../formats/format.js";
import { DIALECTS, generateDdl } from "../../warehouse/ddl/ddl.js";
import { ddlLocation } from "../../warehouse/ddl/ddl-location.js";
import type { Dialect } from "../../warehouse/ddl/ddl.js";
import { tableLayout } from "../../warehouse/ddl/table-layout.js";
import { defaultTableName } from "../../warehouse/ddl/table-name.js";
import type { RecordShape } from "../../warehouse/ddl/table-layout.js";
import type { SchemaColumn } from "../../warehouse/output-schema.js";
import { parsePinnedSchema, PINNED_SCHEMA_PATH } from "../../warehouse/pinned-schema.js";
import type { PinnedSchema } from "../../warehouse/pinned-schema.js";
import { destinationOf } from "../../sinks/open-output-store.js";
import { forEachDestination } from "../../pipeline/run/destinations.js";
import { readCommittedPin } from "../../warehouse/pipeline-schemas.js";
import { DEFAULT_PATH_TEMPLATE } from "../../sinks/path-template.js";
import {
  PIPELINE_OPTIONS,
  argumentError,
  parseCommandArgs,
  pipelineTime,
  requirePipelineFile,
  showedHelp,
} from "../command-options.js";
import { EXIT } from "../io.js";
import type { CliIO, Command } from "../io.js";
import { loadSinkSchemas, sinkIndex } from "../load-sink-schemas.js";

const DDL_USAGE = `Usage: mdq-export ddl PIPELINE.yaml --dialect duckdb|athena|bigquery [options]

Prints the statement that makes a sink's output a table: DuckDB a view over read_parquet or
read_json_objects, Athena/Glue CREATE EXTERNAL TABLE with partition projection, BigQuery an external
table; columns with the pinned types, Hive partition columns typed (dt=DATE, hour=integer). NDJSON
written with column_names: as_is is read where its values are, nested objects included.
Writes nothing. The columns come from a committed pin (--pin, or the sink's schema.pinned), else
from the pin the last run wrote beside the output: nothing is requested from the service and its
credentials are not needed. Before the first run, the service is asked for the kind's fields.

Options:
  --dialect D       duckdb, athena or bigquery (required)
  --sink N          the sink (1 = the first, the default)
  --pin FILE        the sink's pinned schema (mdq-export schema --json); read instead of the service
  --table NAME      table or view name (default: the pipeline's name in snake_case; with several
                    sinks, followed by the sink's format, and its number when sinks share a format)
  --location URI    where the files are read from (default: where the sink's destination says the
                    dialect reads them: a local directory made absolute for DuckDB, an S3 prefix
                    for DuckDB and Athena, the same bucket on gs:// for BigQuery)
  --dataset NAME    BigQuery dataset (default mdq)
  --since DATE      first date of Athena's partition projection (default: the window's start)
  --start TIME, --end TIME
                    replace the window (as for run)
  --now TIME        the instant relative windows are resolved against (ISO 8601 with a zone;
                    default: now), as for run
  -h, --help        show this help`;

/** The sink's columns from a pin when there is one (offline), else as the next run would write them. */
async function sinkColumns(
  file: string,
  values: { sink?: string; pin?: string; "log-level"?: string; now?: string; start?: string; end?: string },
  io: CliIO,
): Promise<{ pipeline: Pipeline; index: number; columns: readonly SchemaColumn[] }> {
  const time = pipelineTime(values);
  const offline = await loadPipeline(file, {
    env: io.env,
    withoutService: true,
    components: io.components,
    ...time,
  });
  const index = sinkIndex(values.sink, offline) ?? 0;
  if (values.pin !== undefined) {
    let text: string;
    try {
      text = await readFile(values.pin, "utf8");
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? "error";
      throw argumentError(
        "--pin",
        `--pin: "${values.pin}" cannot be read (${code}); write it with mdq-export schema PIPELINE --sink ${index + 1} --json > ${values.pin}`,
      );
    }
    return { pipeline: offline, index, columns: parsePinnedSchema(text, values.pin).columns };
  }
  const committed = await readCommittedPin(offline, index, file);
  if (committed !== undefined) return { pipeline: offline, index, columns: committed.pin.columns };
  const written = await pinBesideOutput(offline, index, io.components);
  if (written !== undefined) return { pipeline: offline, index, columns: written.columns };
  const { pipeline, schemas } = await loadSinkSchemas(file, io, values["log-level"], time);
  const schema = schemas[index];
  if (schema === undefined) throw argumentError("--sink", `--sink: no sink ${index + 1}`);
  return { pipeline, index, columns: schema.columns };
}

/** The schema every file of the sink has: the pin its last run wrote beside the output. */
async function pinBesideOutput(
  pipeline: Pipeline,
  index: number,
  components: Components,
): Promise<PinnedSchema | undefined> {
  let pin: PinnedSchema | undefined;
  const sinks = pipeline.sinks.slice(index, index + 1);
  await forEachDestination({ ...pipeline, sinks }, components, async (store) => {
    const bytes = await store.getObject(PINNED_SCHEMA_PATH);
    const from = `${store.location}/${PINNED_SCHEMA_PATH}`;
    if (bytes !== undefined) pin = parsePinnedSchema(Buffer.from(bytes).toString("utf8"), from);
  });
  return pin;
}

/**
 * JSON lines under `as_is` keep the transforms' records; without `flatten` their dotted columns are
 * nested objects. `snake_case` writes one key per column, and a columnar file has columns of its own.
 */
function recordShapeOf(pipeline: Pipeline, index: number, files: TableFiles): RecordShape {
  const sink = pipeline.sinks[index];
  if (sink === undefined || files.records !== "json-lines" || sink.column_names !== "as_is") return "columns";
  return pipeline.transforms.some((step) => step.type === "flatten") ? "flattened" : "nested";
}

/** The paths `rename` and `add` write: a dotted one lands nested or under a literal key, by record. */
function writtenByTransforms(pipeline: Pipeline): string[] {
  return pipeline.transforms.flatMap((step) => {
    if (step.type === "rename") return Object.values(step.config as Record<string, string>);
    if (step.type === "add") return Object.keys(step.config as Record<string, unknown>);
    return [];
  });
}

/** The formats a warehouse reads, for the message that refuses another. */
function formatsWithTables(components: Components): string {
  const formats: readonly Format[] = Object.values(components.formats);
  return formats
    .filter((format) => format.table !== undefined)
    .map((format) => format.type)
    .join(", ");
}

export const ddlCommand: Command = async (argv, io) => {
  const { values, positionals } = parseCommandArgs(
    argv,
    {
      ...PIPELINE_OPTIONS,
      dialect: { type: "string" },
      sink: { type: "string" },
      pin: { type: "string" },
      table: { type: "string" },
      location: { type: "string" },
      dataset: { type: "string" },
      since: { type: "string" },
    },
    DDL_USAGE,
  );
  if (showedHelp(values, io, DDL_USAGE)) return EXIT.ok;
  const file = requirePipelineFile(positionals, DDL_USAGE);
  const dialect = values.dialect;
  if (dialect === undefined || !(DIALECTS as readonly string[]).includes(dialect))
    throw argumentError("--dialect", `--dialect: "${dialect ?? ""}" is not one of ${DIALECTS.join(", ")}`);
  const since = values.since === undefined ? undefined : new Date(`${values.since}T00:00:00Z`);
  if (since !== undefined && Number.isNaN(since.getTime()))
    throw argumentError("--since", `--since: "${values.since ?? ""}" is not a date (YYYY-MM-DD)`);
  const components = io.components;
  const { pipeline, index, columns } = await sinkColumns(file, values, io);
  const sink = pipeline.sinks[index];
  if (sink === undefined) return EXIT.invalid;
  const destination = destinationOf(sink, components.destinations);
  if (destination.stream === true)
    throw argumentError(
      "--sink",
      `sink ${index + 1} writes to ${destination.type}, one stream; no table reads it`,
    );
  const format = formatOf(components, sink);
  const settings = format.settings(sink);
  const files = format.table?.(settings);
  if (files === undefined)
    throw argumentError(
      `sinks.${index}.format`,
      `ddl: no warehouse reads format "${format.type}" (sink ${index + 1}); pick a format ddl can describe, such as ${formatsWithTables(components)}`,
    );
  let ddl: string;
  try {
    ddl = generateDdl(
      dialect as Dialect,
      tableLayout({
        table:
          values.table ??
          defaultTableName(
            pipeline.name,
            pipeline.sinks.map((each) => formatOf(components, each).type),
            index,
          ),
        columns,
        files,
        recordShape: recordShapeOf(pipeline, index, files),
        writtenByTransforms: writtenByTransforms(pipeline),
        extension: format.extension(settings),
        location: ddlLocation(
          dialect as Dialect,
          sink.to,
          values.location,
          Object.values(components.destinations),
        ),
        pathTemplate: sink.path ?? DEFAULT_PATH_TEMPLATE,
        since: since ?? pipeline.source.window.start,
      }),
      { dataset: values.dataset ?? "mdq" },
    );
  } catch (error) {
    throw argumentError(`sinks.${index}`, `ddl --dialect ${dialect}: ${(error as Error).message}`);
  }
  io.stdout.write(ddl);
  return EXIT.ok;
};
