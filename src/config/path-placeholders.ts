// Record placeholders of a sink's path (`state={job.state}`) checked against the columns the sink
// writes. The sink routes rows after `column_names`, so a placeholder names an OUTPUT column, the
// name a user sees in the files and the DDL (`{ticket_type}` under snake_case), and nothing else: a
// field's name before naming (`{ticket.type}`) is refused with the column it is written as, any other
// name with a did-you-mean. Either would put every row under the null partition.
import type { z } from "zod";
import type { Components } from "../components/environment.js";
import { kindOf } from "../components/environment.js";
import { transformColumns } from "../components/registry.js";
import type { TransformStep } from "../components/registry.js";
import type { Column } from "../core/contracts.js";
import type { SourceSpec } from "../kinds/source-spec.js";
import type { SinkConfig } from "../sinks/sink-config.js";
import { aggregationSourceColumns } from "../kinds/aggregation-source.js";
import { namingRules, rulesForColumns } from "../warehouse/column-names.js";
import { kindColumnNames } from "../kinds/data-kind.js";
import { sourceColumns } from "./source-columns.js";
import type { SourceConfig } from "./source-schema.js";
import { didYouMean } from "../core/close-matches.js";
import { isBuiltInPlaceholder } from "../sinks/path-template.js";
import { compiledPath } from "./partition-grid.js";
import { columnName } from "../warehouse/column-names.js";
import type { ColumnNamingRules } from "../warehouse/column-names.js";

/** The record fields a path names (none when the template does not compile: the sink reports that). */
const pathFields = (path: string): readonly string[] => compiledPath(path)?.fields ?? [];

/**
 * Why `{name}` names no output column, or undefined when it names one. A field's name before naming
 * is not taken (`{ticket.type}` under snake_case): the path, the files and the DDL would then spell
 * one column two ways; the message says which column that field is written as.
 */
function placeholderProblem(
  name: string,
  columns: readonly Column[],
  rules: ColumnNamingRules,
): string | undefined {
  const outputs = new Set<string>();
  let renamed: string | undefined;
  for (const column of columns) {
    const output = columnName(column.name, rules);
    outputs.add(output);
    if (column.name === name) renamed = output;
  }
  if (outputs.has(name)) return undefined;
  const why =
    "placeholders name output columns, after column_names and the transforms; mdq-export schema lists them";
  if (renamed !== undefined) {
    const written = `{${name}} names no column this sink writes: the field ${JSON.stringify(name)} is written as column ${JSON.stringify(renamed)}`;
    if (isBuiltInPlaceholder(renamed))
      return `${written}, which a path cannot name ({${renamed}} is the slice's own); name the column otherwise with column_name_overrides or rename`;
    return `${written}; write {${renamed}} (${why})`;
  }
  return `{${name}} names no column this sink writes, so every row would go under the null partition${didYouMean(name, outputs)} (${why})`;
}

/** A problem for every record placeholder of `path` that names no column of the sink's output. */
export function placeholderProblems(
  path: string,
  columns: readonly Column[],
  rules: ColumnNamingRules,
): string[] {
  const problems: string[] = [];
  for (const name of new Set(pathFields(path))) {
    const problem = placeholderProblem(name, columns, rules);
    if (problem !== undefined) problems.push(problem);
  }
  return problems;
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
  const kind = kindOf(components, source.kind);
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
  // Named as the sink names them: a kind's own snake_case names (logs' app_timestamp) included.
  const kindNames = kindColumnNames(kindOf(components, pipeline.source.kind), pipeline.source);
  for (const [index, sink] of pipeline.sinks.entries()) {
    if (sink.path === undefined) continue;
    const rules = rulesForColumns(namingRules(sink, kindNames), columns);
    for (const message of placeholderProblems(sink.path, columns, rules))
      ctx.addIssue({ code: "custom", path: ["sinks", index, "path"], message });
  }
}
