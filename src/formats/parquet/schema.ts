// The schema of a Parquet file the exporter writes: one OPTIONAL element per column, typed by the
// column's type, after the root.
import type { SchemaElement } from "hyparquet-writer";
import type { Column, ColumnType } from "../../core/contracts.js";

/** A file's schema: the root element, then one element per column. */
export function parquetSchema(columns: readonly Column[]): SchemaElement[] {
  return [{ name: "root", num_children: columns.length }, ...columns.map(schemaElementFor)];
}

/**
 * Every column is OPTIONAL: the service omits fields freely, so any value may be null. Text and
 * timestamps carry both the logical type, which current readers go by, and the converted type, which
 * older readers know.
 */
function schemaElementFor(column: Column): SchemaElement {
  const base = { name: column.name, repetition_type: "OPTIONAL" } as const;
  const text = {
    ...base,
    type: "BYTE_ARRAY",
    converted_type: "UTF8",
    logical_type: { type: "STRING" },
  } as const;
  const byType: Record<ColumnType, SchemaElement> = {
    string: text,
    json: text,
    double: { ...base, type: "DOUBLE" },
    int64: { ...base, type: "INT64" },
    int32: { ...base, type: "INT32" },
    boolean: { ...base, type: "BOOLEAN" },
    timestamp: {
      ...base,
      type: "INT64",
      converted_type: "TIMESTAMP_MILLIS",
      logical_type: { type: "TIMESTAMP", isAdjustedToUTC: true, unit: "MILLIS" },
    },
  };
  return byType[column.type];
}
