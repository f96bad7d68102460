// How each warehouse dialect spells the pinned column types and the partition columns: one table, a
// row per type, so a new column type is given its name in every dialect at once; and the column list
// Athena and BigQuery both declare, flat or as nested records.
import type { ColumnType } from "../../core/contracts.js";
import { nestedFields } from "./record-paths.js";
import type { RecordField } from "./record-paths.js";
import type { PartitionSource, TableLayout } from "./table-layout.js";

type Dialect = "athena" | "bigquery" | "duckdb";

type DialectNames = Readonly<Record<Dialect, string>>;

const COLUMN_TYPES: Readonly<Record<ColumnType, DialectNames>> = {
  string: { athena: "string", bigquery: "STRING", duckdb: "VARCHAR" },
  double: { athena: "double", bigquery: "FLOAT64", duckdb: "DOUBLE" },
  int64: { athena: "bigint", bigquery: "INT64", duckdb: "BIGINT" },
  int32: { athena: "int", bigquery: "INT64", duckdb: "INTEGER" },
  boolean: { athena: "boolean", bigquery: "BOOL", duckdb: "BOOLEAN" },
  // DuckDB's is an instant whatever the session zone; a plain TIMESTAMP would be wall time in it.
  timestamp: { athena: "timestamp", bigquery: "TIMESTAMP", duckdb: "TIMESTAMPTZ" },
  // Athena has no JSON type and BigQuery's external tables cannot declare one: the text is kept,
  // and json_extract or PARSE_JSON reads it.
  json: { athena: "string", bigquery: "STRING", duckdb: "JSON" },
};

/** Every column type, in the table's order: what a pinned schema may name. */
export const COLUMN_TYPE_NAMES = Object.keys(COLUMN_TYPES) as [ColumnType, ...ColumnType[]];

const PARTITION_TYPES: Readonly<Record<PartitionSource, DialectNames>> = {
  date: { athena: "date", bigquery: "DATE", duckdb: "DATE" },
  hour: { athena: "int", bigquery: "INT64", duckdb: "INTEGER" },
  text: { athena: "string", bigquery: "STRING", duckdb: "VARCHAR" },
};

/** The dialect's name for each column type. */
export function columnTypes(dialect: Dialect): Readonly<Record<ColumnType, string>> {
  return Object.fromEntries(COLUMN_TYPE_NAMES.map((type) => [type, COLUMN_TYPES[type][dialect]])) as Record<
    ColumnType,
    string
  >;
}

/** The dialect's name for a partition column's type. */
export function partitionType(source: PartitionSource, dialect: Dialect): string {
  return PARTITION_TYPES[source][dialect];
}

/**
 * The table's columns as `  \`name\` type` lines: each column, or, for nested records, each top-level
 * field with its object as the dialect's struct (`struct` spells one from its typed fields).
 */
export function columnList(
  layout: TableLayout,
  types: Readonly<Record<ColumnType, string>>,
  struct: (fields: readonly { name: string; type: string }[]) => string,
): string {
  const fieldType = (field: RecordField): string =>
    "column" in field
      ? types[field.column.type]
      : struct(field.fields.map((inner) => ({ name: inner.name, type: fieldType(inner) })));
  const fields: RecordField[] =
    layout.recordShape === "nested"
      ? nestedFields(layout.columns, layout.writtenByTransforms)
      : layout.columns.map((column) => ({ name: column.name, column }));
  return fields.map((field) => `  \`${field.name}\` ${fieldType(field)}`).join(",\n");
}
