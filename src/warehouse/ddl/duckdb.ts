// DuckDB: a view over the format's reader (read_parquet, read_json_objects), each column cast to its
// pinned type and the partition columns typed, so `hour` is an integer and `dt` a date. Timestamps
// are instants (TIMESTAMPTZ), the same in every session zone; partition values are the UTC ones the
// path template wrote.
import { hasControlCharacter } from "../../core/control-characters.js";
import type { TableLayout } from "./table-layout.js";
import { sqlString } from "./table-layout.js";
import { duckdbPartitions } from "./duckdb-partitions.js";
import { columnSelect, INSTANT_MACRO_SQL, quote, RECORD } from "./duckdb-values.js";

export function duckdbDdl(layout: TableLayout): string {
  // DuckDB's parser ends a statement's text at a NUL; no control character goes into one.
  const unprintable = layout.columns.filter((column) => hasControlCharacter(column.name));
  if (unprintable.length > 0)
    throw new Error(
      `DuckDB cannot name the columns ${unprintable.map((column) => JSON.stringify(column.name)).join(", ")}, which hold control characters; rename them with a transform, or set column_names: snake_case on the sink`,
    );
  const files = sqlString(`${layout.location}/${layout.glob}`);
  // Records are read whole and each column taken by JSON Pointer, so a nested field or a key with a
  // dot in it is found where it was written; read_json's columns would see top-level keys only.
  const jsonLines = layout.files.records === "json-lines";
  const partitions = duckdbPartitions(layout, jsonLines ? ["json"] : []);
  const read = layout.files.dialects.duckdb;
  const reader = jsonLines
    ? `${read}(${files}, format = 'newline_delimited'${partitions.readerOptions}) AS ${RECORD}`
    : `${read}(${files}${partitions.readerOptions}, union_by_name = true)`;
  const select = [...layout.columns.map((column) => columnSelect(column, layout)), ...partitions.selects];
  const view = `CREATE OR REPLACE VIEW ${quote(layout.table)} AS\nSELECT\n${select.join(",\n")}\nFROM ${reader};\n`;
  // The view reads timestamps from text through the instant macro, which it defines first.
  const readsInstants = jsonLines && layout.columns.some((column) => column.type === "timestamp");
  return readsInstants ? `${INSTANT_MACRO_SQL}${view}` : view;
}
