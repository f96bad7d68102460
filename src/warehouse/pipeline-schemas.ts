// The warehouse contract of a whole pipeline: each sink's schema resolved against its pin (the file
// committed next to the pipeline, or the one the first run wrote beside the output), the sinks made
// to write exactly that schema, and the pin recorded after a successful run.
import { readFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { escapeControl } from "../api/redact.js";
import { ConfigError, errorMessage, EtlError } from "../errors.js";
import type { Column, OutputStore, Sink } from "../core/contracts.js";
import { transformColumns } from "../components/registry.js";
import type { StepProblem, TransformStep, TransformTable } from "../components/registry.js";
import type { SinkConfig } from "../sinks/sink-config.js";
import { mapRows } from "../transforms/map-rows.js";
import { namingRules } from "./column-names.js";
import { withSourceFields } from "./output-schema.js";
import { escapedName } from "./show-name.js";
import { formatPinnedSchema, parsePinnedSchema, PINNED_SCHEMA_PATH } from "./pinned-schema.js";
import type { PinnedSchema } from "./pinned-schema.js";
import { resolveSinkSchema } from "./sink-schema.js";
import type { SinkSchema } from "./sink-schema.js";

/** What the schemas read of a pipeline: its transforms and its sinks (a parsed Pipeline is one). */
interface PipelineOutputs {
  readonly transforms: readonly TransformStep[];
  readonly sinks: readonly SinkConfig[];
}

interface PipelineSchemaInput {
  pipeline: PipelineOutputs;
  /** The transforms of the environment the pipeline was loaded with. */
  transforms: TransformTable;
  /** The pipeline file: a committed pin's path is relative to it. */
  pipelineFile: string;
  /** The columns rows carry as they leave the source. */
  sourceColumns: readonly Column[];
  /** Each sink, in the pipeline's order, with its store (none where none is open, as in `schema`): the pin beside the output is read from it. */
  sinks: readonly SchemaSink[];
  /** The run's start: how long a removed field's column has been kept is measured to it. */
  now?: Date | undefined;
  /** The data kind's own snake_case names for the source's columns (`kindColumnNames`). */
  kindNames?: Readonly<Record<string, string>> | undefined;
  /** Each sink's pin as `readPins` read it before the service was asked (a run); read here otherwise. */
  pins?: readonly (SinkPin | undefined)[] | undefined;
}

/** A sink's pinned schema and where it was read from. */
export interface SinkPin {
  pin: PinnedSchema;
  from: string;
}

/** A sink of the pipeline and the store its output is in. */
export interface SchemaSink {
  config: SinkConfig;
  store: OutputStore | undefined;
}

/** A sink with its store and its resolved schema: what pinning needs. */
interface PinnedSink extends SchemaSink {
  schema: ResolvedSinkSchema;
  /** Whether its destination keeps files (a stream, stdout, has nothing to pin beside). */
  keepsFiles: boolean;
}

export interface ResolvedSinkSchema extends SinkSchema {
  where: string;
  /** Where the pin compared with came from; undefined on a first run. */
  pinnedFrom: string | undefined;
}

/**
 * Every sink's pin, committed beside the pipeline or kept beside the output, read and checked. A run
 * reads them under its lock before it asks the service anything, so a pin that is missing or broken
 * ends it (exit 2) having sent no request.
 */
export async function readPins(
  pipeline: Pick<PipelineOutputs, "sinks">,
  file: string,
  sinks: readonly SchemaSink[],
): Promise<(SinkPin | undefined)[]> {
  const pins: (SinkPin | undefined)[] = [];
  for (const [index, { store }] of sinks.entries()) {
    const committed = await readCommittedPin(pipeline, index, file);
    const bytes = committed === undefined ? await store?.getObject(PINNED_SCHEMA_PATH) : undefined;
    const from = `${store?.location ?? ""}/${PINNED_SCHEMA_PATH}`;
    const kept =
      bytes === undefined ? undefined : parsePinnedSchema(Buffer.from(bytes).toString("utf8"), from);
    pins.push(committed ?? (kept && { pin: kept, from }));
  }
  return pins;
}

/**
 * The schema a sink's `schema.pinned` names, read next to the pipeline file and checked; undefined
 * when the sink pins nothing in the repository. `validate` reads it too, so a broken pin fails there.
 */
export async function readCommittedPin(
  pipeline: Pick<PipelineOutputs, "sinks">,
  index: number,
  file: string,
): Promise<SinkPin | undefined> {
  const committed = pipeline.sinks[index]?.schema.pinned;
  if (committed === undefined) return undefined;
  const path = resolve(dirname(file), committed);
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    const message = `"${committed}" cannot be read (${(error as NodeJS.ErrnoException).code ?? "error"}); write it with mdq-export schema PIPELINE --sink ${index + 1} --json > ${committed}`;
    throw pinError(index, message, error);
  }
  try {
    return { pin: parsePinnedSchema(text, committed), from: committed };
  } catch (error) {
    // The file is part of the pipeline's definition: a broken one is a configuration error (exit 2).
    throw pinError(index, errorMessage(error), error);
  }
}

function pinError(index: number, message: string, cause: unknown): ConfigError {
  const path = `sinks.${index}.schema.pinned`;
  return new ConfigError(`sinks[${index}].schema.pinned: ${message}`, [{ path, message }], { cause });
}

/**
 * Resolves every sink's schema on the live mappings; throws before anything is written or pinned when a
 * policy refuses (SchemaDriftError), two columns would share a name (COLUMN_COLLISION) or the
 * service's names pass the sink's bounds (COLUMNS_UNBOUNDED).
 */
export async function resolvePipelineSchemas(input: PipelineSchemaInput): Promise<ResolvedSinkSchema[]> {
  const transformed = transformColumns(
    input.transforms,
    input.pipeline.transforms,
    withSourceFields(input.sourceColumns),
  );
  checkTransformOverwrites(transformed.problems);
  const columns = transformed.columns;
  const schemas: ResolvedSinkSchema[] = [];
  const pins = input.pins ?? (await readPins(input.pipeline, input.pipelineFile, input.sinks));
  for (const [index, { config: sink }] of input.sinks.entries()) {
    const where = `sink ${index + 1} (${sink.to})`;
    const pinned = pins[index];
    const schema = resolveSinkSchema({
      ...namingRules(sink, input.kindNames),
      policy: sink.schema,
      columns,
      pinned: pinned?.pin,
      where,
      now: input.now,
    });
    schemas.push({ ...schema, where, pinnedFrom: pinned?.from });
  }
  return schemas;
}

/**
 * A transform that would write over a field only the live mappings have (`add: { job_state: … }` when
 * the service starts mapping `job_state`): validate could not see it; the run stops before writing.
 */
function checkTransformOverwrites(problems: readonly StepProblem[]): void {
  const overwrite = problems.find((problem) => problem.overwrites === true);
  if (overwrite === undefined) return;
  throw new EtlError(
    "COLUMN_COLLISION",
    `transforms[${overwrite.step}].${overwrite.type}.${escapedName(overwrite.path)}: ${escapeControl(overwrite.message)} (the service's mappings have it now); nothing was written`,
  );
}

/** A sink that writes rows conformed to its schema (renamed, in pinned order) when names change. */
export function conformSink(sink: Sink, schema: SinkSchema): Sink {
  const conform = schema.conformRow;
  if (conform === undefined) return sink;
  const transform = mapRows((row) => conform(row));
  return (input, ctx) => sink(transform(input, ctx), ctx);
}

/** Records each sink's schema beside its output (not for a stream, stdout), after a successful run. */
export async function pinSchemas(sinks: readonly PinnedSink[]): Promise<void> {
  for (const { store, schema, keepsFiles } of sinks) {
    if (store === undefined || !keepsFiles) continue;
    const text = formatPinnedSchema(schema.columns);
    const current = await store.getObject(PINNED_SCHEMA_PATH);
    if (current === undefined || Buffer.from(current).toString("utf8") !== text)
      await store.putObject(PINNED_SCHEMA_PATH, text);
  }
}
