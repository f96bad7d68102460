// Reads an export the way a warehouse does: the generated DuckDB DDL executed in a session time zone,
// every Parquet file by a second reader (arrow-rs through parquet-wasm, not the writer's library),
// and every NDJSON file by JSON.parse line by line and by DuckDB's read_json.
import { readFile } from "node:fs/promises";
import { gunzipSync } from "node:zlib";
import type { DuckDBConnection } from "@duckdb/node-api";
import { tableFromIPC } from "apache-arrow";
import type { DataType } from "apache-arrow";
import { readParquet as readParquetWasm } from "parquet-wasm";
import type { ViewRow } from "./view-compare.js";

export interface ReadTable {
  rows: ViewRow[];
  /** Column name → type, in DuckDB's spelling (VARCHAR, BIGINT, TIMESTAMP WITH TIME ZONE, …). */
  types: Record<string, string>;
}

const quote = (text: string) => `'${text.replaceAll("'", "''")}'`;

/** Executes `ddl` with the session in `zone` and reads every row of `view`; the view is dropped after. */
export async function readDdlView(
  connection: DuckDBConnection,
  ddl: string,
  view: string,
  zone: string,
): Promise<ReadTable> {
  await connection.run(`SET TimeZone = ${quote(zone)}`);
  try {
    await connection.run(ddl);
    const reader = await connection.runAndReadAll(`SELECT * FROM "${view}"`);
    const names = reader.columnNames();
    const types: Record<string, string> = {};
    reader.columnTypes().forEach((type, index) => (types[names[index] as string] = type.toString()));
    return { rows: reader.getRowObjectsJS(), types };
  } finally {
    await connection.run(`DROP VIEW IF EXISTS "${view}"`);
    await connection.run(`DROP TABLE IF EXISTS "${view}"`);
  }
}

function arrowType(type: DataType): string {
  const text = String(type);
  if (text.startsWith("Int64")) return "BIGINT";
  if (text.startsWith("Int32") || text.startsWith("Int16") || text.startsWith("Int8")) return "INTEGER";
  if (text.startsWith("Timestamp")) return "TIMESTAMP";
  if (text.startsWith("Float")) return "DOUBLE";
  if (text === "Bool") return "BOOLEAN";
  if (text.startsWith("Date")) return "DATE";
  return "VARCHAR";
}

/** One Parquet file through arrow-rs (parquet-wasm) and apache-arrow. */
export async function readParquetFile(path: string): Promise<ReadTable> {
  const bytes = await readFile(path);
  const table = tableFromIPC(readParquetWasm(new Uint8Array(bytes)).intoIPCStream());
  const types: Record<string, string> = {};
  for (const field of table.schema.fields) types[field.name] = arrowType(field.type);
  const rows = table.toArray().map((row: { toJSON(): ViewRow }) => row.toJSON());
  return { rows, types };
}

/** Problems with one NDJSON file: a line JSON.parse refuses, or a file DuckDB's read_json refuses. */
export async function checkNdjsonFile(connection: DuckDBConnection, path: string): Promise<string[]> {
  const bytes = await readFile(path);
  const text = (path.endsWith(".gz") ? gunzipSync(bytes) : bytes).toString("utf8");
  const problems: string[] = [];
  text.split("\n").forEach((line, index) => {
    if (line === "") return;
    try {
      JSON.parse(line);
    } catch (error) {
      if (problems.length < 3)
        problems.push(`${path}:${index + 1} is not JSON (${String(error)}): ${line.slice(0, 160)}`);
    }
  });
  try {
    await connection.run(`SELECT count(*) FROM read_json(${quote(path)}, format = 'newline_delimited')`);
  } catch (error) {
    problems.push(`DuckDB read_json refuses ${path}: ${String(error).slice(0, 300)}`);
  }
  return problems;
}
