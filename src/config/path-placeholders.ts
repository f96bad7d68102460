// Record placeholders of a sink's path (`state={job.state}`) checked against the columns the sink
// writes. The sink routes rows after `column_names`, so a placeholder is read by its OUTPUT name: the
// name a user sees in the files (`{ticket_type}` under snake_case). The name a field has before
// naming (`{ticket.type}`, what paths held before) is taken too, and rewritten to its column's output
// name when the pipeline loads, so either spelling reads the same value. Any other name is refused:
// it would put every row under the null partition.
import type { z } from "zod";
import type { Components } from "../components/environment.js";
import { transformColumns } from "../components/registry.js";
import type { TransformStep } from "../components/registry.js";
import type { Column } from "../core/contracts.js";
import type { SourceSpec } from "../kinds/source-spec.js";
import type { SinkConfig } from "../sinks/schema.js";
import { aggregationSourceColumns } from "../sources/aggregation.js";
import { namingRules } from "../warehouse/column-names.js";
import { sourceColumns } from "./source-columns.js";
import type { SourceConfig } from "./source-schema.js";
import { didYouMean } from "../core/close-matches.js";
import { compilePathTemplate, isBuiltInPlaceholder } from "../sinks/path-template.js";
import { columnName } from "../warehouse/column-names.js";
import type { ColumnNamingRules } from "../warehouse/column-names.js";

/** What a placeholder reads, or why it cannot be read. */
type Resolution = { column: string } | { problem: string };

/** The record fields a path names (none when the template does not compile: the sink reports that). */
function pathFields(path: string): readonly string[] {
  try {
    return compilePathTemplate(path).fields;
  } catch {
    return [];
  }
}

/**
 * The output column a placeholder names: an output name as is, else a field's name before naming
 * mapped to its output name. A name that is both (one column's output name and another field's name
 * before naming) is refused rather than guessed.
 */
function resolveField(name: string, columns: readonly Column[], rules: ColumnNamingRules): Resolution {
  const outputs = new Set<string>();
  let renamed: string | undefined;
  for (const column of columns) {
    const output = columnName(column.name, rules);
    outputs.add(output);
    if (column.name === name) renamed = output;
  }
  if (outputs.has(name)) {
    if (renamed === undefined || renamed === name) return { column: name };
    return {
      problem: `{${name}} is ambiguous: it is a column of the output, and the field ${JSON.stringify(name)} is written as column ${JSON.stringify(renamed)}; write {${renamed}} for that field`,
    };
  }
  if (renamed !== undefined) {
    if (!isBuiltInPlaceholder(renamed)) return { column: renamed };
    return {
      problem: `{${name}} is written as column ${JSON.stringify(renamed)}, which a path cannot name: {${renamed}} is the slice's own; name the column otherwise with column_name_overrides or rename`,
    };
  }
  return {
    problem: `{${name}} names no column this sink writes, so every row would go under the null partition${didYouMean(name, outputs)} (placeholders name output columns, after column_names and the transforms; mdq-export schema lists them)`,
  };
}

/** A problem for every record placeholder of `path` that names no column of the sink's output. */
export function placeholderProblems(
  path: string,
  columns: readonly Column[],
  rules: ColumnNamingRules,
): string[] {
  const problems: string[] = [];
  for (const name of new Set(pathFields(path))) {
    const resolution = resolveField(name, columns, rules);
    if ("problem" in resolution) problems.push(resolution.problem);
  }
  return problems;
}

/**
 * The path with every record placeholder naming its output column (`{ticket.type}` →
 * `{ticket_type}` under snake_case): what the sink reads from the rows it is given, which carry the
 * output names. Placeholders already right, and the rest of the text, are left exactly as written.
 */
export function resolvePlaceholders(
  path: string,
  columns: readonly Column[],
  rules: ColumnNamingRules,
): string {
  if (pathFields(path).length === 0) return path;
  return path.replace(/\{([^{}]*)\}/g, (whole, inner: string) => {
    const name = inner.trim();
    if (name === "" || isBuiltInPlaceholder(name)) return whole;
    const resolution = resolveField(name, columns, rules);
    return "column" in resolution && resolution.column !== name ? `{${resolution.column}}` : whole;
  });
}

/** The parts of a pipeline the placeholders are checked against. */
interface PipelineColumns {
  source: Pick<SourceConfig, "kind" | "strategy" | "fields" | "aggs"> & SourceSpec;
  transforms: readonly TransformStep[];
  sinks: readonly SinkConfig[];
}

/**
 * The columns the sinks receive, as validation knows them offline: the kind's field table (or the
 * aggregation's bucket columns) through the transforms.
 */
function outputColumns(pipeline: PipelineColumns, components: Components): readonly Column[] {
  const { source } = pipeline;
  const kind = components.kinds[source.kind];
  const columns =
    source.strategy === "aggs"
      ? aggregationSourceColumns({ aggs: source.aggs ?? {}, sets: kind.aggregation?.sets(source) ?? [] })
      : (sourceColumns(source, components.kinds) ?? []);
  return transformColumns(components.transforms, pipeline.transforms, columns).columns;
}

/** Reports, at each sink's `path`, every placeholder that names no column the sink writes. */
export function checkPathPlaceholders(
  pipeline: PipelineColumns,
  components: Components,
  ctx: z.RefinementCtx,
): void {
  if (!pipeline.sinks.some((sink) => sink.path !== undefined && pathFields(sink.path).length > 0)) return;
  const columns = outputColumns(pipeline, components);
  for (const [index, sink] of pipeline.sinks.entries()) {
    if (sink.path === undefined) continue;
    for (const message of placeholderProblems(sink.path, columns, namingRules(sink)))
      ctx.addIssue({ code: "custom", path: ["sinks", index, "path"], message });
  }
}

/** The pipeline with each sink's path reading output columns (see resolvePlaceholders). */
export function withPlaceholdersResolved<P extends PipelineColumns>(pipeline: P, components: Components): P {
  if (!pipeline.sinks.some((sink) => sink.path !== undefined && pathFields(sink.path).length > 0))
    return pipeline;
  const columns = outputColumns(pipeline, components);
  const sinks = pipeline.sinks.map((sink) =>
    sink.path === undefined
      ? sink
      : { ...sink, path: resolvePlaceholders(sink.path, columns, namingRules(sink)) },
  );
  return { ...pipeline, sinks };
}
