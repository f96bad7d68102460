// The columns a source's rows carry before transforms, derived from the spec's field table: the
// hit's `_source` fields (or the projected `fields`), with `_id` and `_index` beside them.
import type { MappingType } from "../api/wire/fields.js";
import type { Column, ColumnType } from "../pipeline/contracts.js";
import { kindFields } from "./kind-rules.js";
import type { SourceConfig } from "./source-schema.js";

export const COLUMN_TYPES: Readonly<Record<MappingType, ColumnType>> = {
  keyword: "string",
  text: "string",
  alias: "string",
  date: "timestamp",
  float: "double",
  long: "int64",
  integer: "int32",
  boolean: "boolean",
};

const HIT_COLUMNS: readonly Column[] = [
  { name: "_id", type: "string" },
  { name: "_index", type: "string" },
];

/**
 * Columns of the rows a source yields, or undefined when they cannot be known offline: aggregation
 * rows are named after the request's bucket keys, so checks on them are left to run time.
 */
export function sourceColumns(
  source: Pick<SourceConfig, "kind" | "strategy" | "fields">,
): Column[] | undefined {
  if (source.strategy === "aggs") return undefined;
  const all = kindFields(source.kind).map((field) => ({ name: field.name, type: COLUMN_TYPES[field.type] }));
  if (source.kind === "billing") return all;
  // Multi-field companions (message.keyword) are index views, not _source values, so they add no column.
  const wanted =
    source.fields === undefined ? all : all.filter((column) => source.fields?.includes(column.name));
  return [...HIT_COLUMNS, ...wanted];
}
