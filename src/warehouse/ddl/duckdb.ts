// DuckDB: a view over the format's reader (read_parquet, read_json_objects) with Hive partitioning, each column cast to its
// pinned type and the partition columns typed, so `hour` is an integer and `dt` a date.
import type { ColumnType } from "../../core/contracts.js";
import type { SchemaColumn } from "../output-schema.js";
import type { PartitionSource, TableLayout } from "./table-layout.js";
import { sqlString } from "./table-layout.js";
import { jsonPointer, recordPaths } from "./record-paths.js";

const TYPES: Readonly<Record<ColumnType, string>> = {
  string: "VARCHAR",
  double: "DOUBLE",
  int64: "BIGINT",
  int32: "INTEGER",
  boolean: "BOOLEAN",
  timestamp: "TIMESTAMP",
  json: "JSON",
};

const PARTITION_TYPES: Readonly<Record<PartitionSource, string>> = {
  date: "DATE",
  hour: "INTEGER",
  text: "VARCHAR",
};

/** The reader's one column: each NDJSON line as a JSON value. */
const RECORD = "mdq_record";

function quote(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/**
 * One column of an NDJSON record, from the first place that holds a value: a JSON `null` is no value,
 * as it is for the Parquet writer. Scalars are read as text and cast, objects and arrays kept as JSON.
 */
function ndjsonValue(column: SchemaColumn, layout: TableLayout): string {
  // Under as_is the exporter's reader finds a dotted column under its literal key or nested, whatever
  // the transforms did; the same search here reads what it wrote.
  const paths = layout.recordShape === "columns" ? [[column.name]] : recordPaths(column.name);
  const reads = paths.map((keys) => {
    const pointer = sqlString(jsonPointer(keys));
    return column.type === "json"
      ? `NULLIF(json_extract(${RECORD}.json, ${pointer}), 'null')`
      : `json_extract_string(${RECORD}.json, ${pointer})`;
  });
  return reads.length === 1 ? (reads[0] ?? "NULL") : `COALESCE(${reads.join(", ")})`;
}

/** A C0 control character or DEL: DuckDB's parser ends a statement's text at a NUL. */
function hasControlCharacter(name: string): boolean {
  for (let i = 0; i < name.length; i++) {
    const code = name.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

export function duckdbDdl(layout: TableLayout): string {
  const unprintable = layout.columns.filter((column) => hasControlCharacter(column.name));
  if (unprintable.length > 0)
    throw new Error(
      `DuckDB cannot name the columns ${unprintable.map((column) => JSON.stringify(column.name)).join(", ")}, which hold control characters; rename them with a transform, or set column_names: snake_case on the sink`,
    );
  const hive =
    layout.partitions.length > 0
      ? `, hive_partitioning = true, hive_types = {${layout.partitions
          .map((partition) => `${sqlString(partition.name)}: ${PARTITION_TYPES[partition.source]}`)
          .join(", ")}}`
      : ", hive_partitioning = false";
  const files = sqlString(`${layout.location}/${layout.glob}`);
  // Records are read whole and each column taken by JSON Pointer, so a nested field or a key with a
  // dot in it is found where it was written; read_json's columns would see top-level keys only.
  const jsonLines = layout.files.records === "json-lines";
  const read = layout.files.dialects.duckdb;
  const reader = jsonLines
    ? `${read}(${files}, format = 'newline_delimited'${hive}) AS ${RECORD}`
    : `${read}(${files}${hive}, union_by_name = true)`;
  const select = [
    ...layout.columns.map((column) => {
      const value = jsonLines ? ndjsonValue(column, layout) : quote(column.name);
      return `  CAST(${value} AS ${TYPES[column.type]}) AS ${quote(column.name)}`;
    }),
    ...layout.partitions.map((partition) => `  ${quote(partition.name)}`),
  ];
  return `CREATE OR REPLACE VIEW ${quote(layout.table)} AS\nSELECT\n${select.join(",\n")}\nFROM ${reader};\n`;
}
