// DuckDB: how the view reads one column's value, typed. A timestamp is an instant (TIMESTAMPTZ)
// whatever the reader's session zone: a plain TIMESTAMP would be read as wall time in that zone.
import type { SchemaColumn } from "../output-schema.js";
import { jsonPointer, recordPaths } from "./record-paths.js";
import type { TableLayout } from "./table-layout.js";
import { sqlString } from "./table-layout.js";
import { columnTypes } from "./dialect-types.js";

const DUCKDB_TYPES = columnTypes("duckdb");

/** The reader's one column: each NDJSON line as a JSON value. */
export const RECORD = "mdq_record";

/** The macro that reads a timestamp's text as the instant the Parquet writer makes of it. */
const INSTANT_MACRO = "mdq_instant";

/**
 * The text of a timestamp as the instant the exporter's Parquet writer makes of the same value:
 * whole epoch milliseconds (within a JavaScript Date's range); ISO 8601 with its offset (`-05:00`,
 * `Z`); without one, UTC. A plain CAST would read the text without an offset in the session's zone,
 * and an offset-free cast would drop the offset.
 */
export const INSTANT_MACRO_SQL = `CREATE OR REPLACE MACRO ${INSTANT_MACRO}(text) AS CASE
  WHEN regexp_full_match(text, '-?[0-9]+') THEN
    CASE WHEN abs(TRY_CAST(text AS HUGEINT)) <= 8640000000000000 THEN make_timestamptz(TRY_CAST(text AS BIGINT) * 1000) END
  WHEN regexp_matches(text, '[0-9]:[0-9]{2}(:[0-9]{2}([.,][0-9]*)?)? ?([zZ]|[+-][0-9]{2}(:?[0-9]{2})?)$') THEN TRY_CAST(text AS TIMESTAMPTZ)
  ELSE timezone('UTC', TRY_CAST(text AS TIMESTAMP))
END;
`;

export function quote(name: string): string {
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

/** The select item of one column: its value typed as pinned, named as the column. */
export function columnSelect(column: SchemaColumn, layout: TableLayout): string {
  const jsonLines = layout.files.records === "json-lines";
  const value = jsonLines ? ndjsonValue(column, layout) : quote(column.name);
  const typed =
    jsonLines && column.type === "timestamp"
      ? `${INSTANT_MACRO}(${value})`
      : `CAST(${value} AS ${DUCKDB_TYPES[column.type]})`;
  return `  ${typed} AS ${quote(column.name)}`;
}
