// The built-in components: one explicit table per kind, keyed by the name pipelines use in YAML, and
// the functions that build a slice's stages from an environment's tables (environment.ts). Adding a
// built-in is one import and one line here; nothing registers itself by being imported.
import { addTransform } from "../transforms/add.js";
import { dropTransform } from "../transforms/drop.js";
import { filterTransform } from "../transforms/filter.js";
import { flattenTransform } from "../transforms/flatten.js";
import { redactTransform } from "../transforms/redact.js";
import { renameTransform } from "../transforms/rename.js";
import { selectTransform } from "../transforms/select.js";
import { ndjsonFormat } from "../formats/ndjson.js";
import { parquetFormat } from "../formats/parquet/parquet-format.js";
import { fileDestination } from "../sinks/file/file-destination.js";
import { s3Destination } from "../sinks/s3/s3-destination.js";
import { stdoutDestination } from "../sinks/stdout/stdout-destination.js";
import type { DataKind } from "../api/wire/fields.js";
import { billingKind } from "../kinds/billing.js";
import type { DataKindComponent, Retrieval, SourceDeps } from "../kinds/data-kind.js";
import { jobsKind } from "../kinds/jobs.js";
import { logsKind } from "../kinds/logs.js";
import { metricsKind } from "../kinds/metrics.js";
import type { SourceSpec } from "../kinds/source-spec.js";
import { ticketsKind } from "../kinds/tickets.js";
import { workloadsKind } from "../kinds/workloads.js";
import { createAggregationSource } from "../kinds/aggregation-source.js";
import { configErrorAt } from "../errors.js";
import type {
  PartitionedSource,
  Source,
  RecordBatch,
  Column,
  ColumnsResult,
  SliceContext,
  Transform,
  TransformComponent,
  TransformDeps,
} from "../core/contracts.js";

/** Transforms by their YAML key (`- rename: {...}`); the pipeline schema is built from this table. */
export const TRANSFORMS = {
  select: selectTransform,
  drop: dropTransform,
  rename: renameTransform,
  flatten: flattenTransform,
  redact: redactTransform,
  add: addTransform,
  filter: filterTransform,
} as const;

/**
 * One configured transform of a pipeline, as the loader hands it over (`{ type: "rename", config }`):
 * `config` was parsed by the schema of the transform its environment has under `type`.
 */
export interface TransformStep {
  readonly type: string;
  readonly config: unknown;
}

/** An environment's transforms by their YAML key. */
export type TransformTable = Readonly<Record<string, TransformComponent>>;

/** An environment's data kinds by `source.kind`. */
export type KindTable = Readonly<Record<DataKind, DataKindComponent>>;

/**
 * Formats by the YAML `format` value; their options join the sink schema, the JSON Schema and the
 * docs, and verify counts rows through them.
 */
export const FORMATS = {
  ndjson: ndjsonFormat,
  parquet: parquetFormat,
} as const;

/**
 * Destinations by type; the sink's `to` picks one by its scheme, and its options sit under its type
 * as a key (`s3:`). Order matters only for messages, which list them as here.
 */
export const DESTINATIONS = {
  file: fileDestination,
  s3: s3Destination,
  stdout: stdoutDestination,
} as const;

/** Data kinds by their `source.kind` value; the source schema, `fields`, the planner and the runner read them here. */
export const KINDS: Readonly<Record<DataKind, DataKindComponent>> = {
  logs: logsKind,
  workloads: workloadsKind,
  jobs: jobsKind,
  tickets: ticketsKind,
  metrics: metricsKind,
  billing: billingKind,
};

/**
 * The source that reads a slice of `source` the way the planner chose.
 * @example const read = createSource(pipeline.source, slicePlan.retrieval, { client }, components.kinds);
 */
export function createSource(
  source: SourceSpec,
  retrieval: Retrieval,
  deps: SourceDeps,
  kinds: KindTable = KINDS,
): Source | PartitionedSource {
  const kind = kinds[source.kind];
  if (retrieval === "aggs" && kind.aggregation !== undefined) {
    const aggregation = kind.aggregation;
    return createAggregationSource({
      aggs: source.aggs ?? {},
      sets: aggregation.sets(source),
      aggregate: (request) => aggregation.send(deps.client, source, request),
    });
  }
  const create = retrieval === "aggs" ? undefined : kind.sources(source.api)[retrieval];
  if (create === undefined) {
    const message = `${source.api} ${source.kind} cannot be read by ${retrieval}`;
    throw configErrorAt("source.strategy", message);
  }
  return create(source, deps);
}

/**
 * The entry of an environment's table that a validated pipeline names; the schema refused any other,
 * so a miss means the pipeline was loaded with another environment than the one it runs with.
 */
export function componentNamed<T>(
  table: Readonly<Record<string, T>>,
  name: string,
  what: string,
  path: string,
): T {
  const found = table[name];
  if (found === undefined) {
    const message = `${what} "${name}" is not one of this environment's (${Object.keys(table).join(", ")}); load and run the pipeline with the same components`;
    throw configErrorAt(path, message);
  }
  return found;
}

const componentOf = (transforms: TransformTable, type: string): TransformComponent =>
  componentNamed(transforms, type, "transform", "transforms");

/**
 * The transforms of a pipeline as one stage; no steps give the identity.
 * @example const transform = createTransformChain(components.transforms, pipeline.transforms, { run });
 * for await (const batch of transform(source(ctx), ctx)) ...
 */
export function createTransformChain(
  transforms: TransformTable,
  steps: readonly TransformStep[],
  deps: TransformDeps,
): Transform {
  const stages = steps.map((step) => componentOf(transforms, step.type).create(step.config, deps));
  return (input: AsyncIterable<RecordBatch>, ctx: SliceContext) =>
    stages.reduce<AsyncIterable<RecordBatch>>((batches, stage) => stage(batches, ctx), input);
}

/** A problem of one step (its index in `transforms`, and its type), at a path inside the step's config. */
export type StepProblem = ColumnsResult["problems"][number] & { step: number; type: string };

/** The output columns of the chain given the source's columns, and every reference to a missing field. */
export function transformColumns(
  transforms: TransformTable,
  steps: readonly TransformStep[],
  input: readonly Column[],
): { columns: readonly Column[]; problems: StepProblem[] } {
  let columns = input;
  const problems: StepProblem[] = [];
  steps.forEach((step, index) => {
    // A step that failed its own schema reaches here unparsed (zod still runs the pipeline's
    // refinements); its own issue already explains it, so it is skipped, not crashed on.
    if (!Object.hasOwn(transforms, (step as { type?: unknown }).type as string)) return;
    const result = componentOf(transforms, step.type).columns(step.config, columns);
    for (const problem of result.problems) problems.push({ step: index, type: step.type, ...problem });
    columns = result.columns;
  });
  return { columns, problems };
}
