// Reads an export back with readers independent of the writers: NDJSON by splitting lines (gunzip
// with node:zlib), Parquet with DuckDB's C++ reader; and the manifest and markers beside the data.
import { readdir, readFile } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { gunzipSync } from "node:zlib";
import { DuckDBInstance } from "@duckdb/node-api";
import type { Manifest } from "../../src/pipeline/output-state/manifest.js";

/** Data files under `dir`, relative and sorted: no manifest, state or marker, no hidden temporary file. */
export async function listDataFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .filter((path) => !path.split(sep).some((part) => part.startsWith("_") || part.startsWith(".")))
    .sort();
}

/** Every file under `dir`, hidden ones included, relative and sorted. */
export async function listAllFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}

/** The records of NDJSON files (gunzipped when named .gz), in file order; a line that is not JSON throws. */
export async function readNdjson(dir: string, files: readonly string[]): Promise<Record<string, unknown>[]> {
  const rows: Record<string, unknown>[] = [];
  for (const file of files) {
    const bytes = await readFile(join(dir, file));
    const text = (file.endsWith(".gz") ? gunzipSync(bytes) : bytes).toString("utf8");
    if (text.length > 0 && !text.endsWith("\n")) throw new Error(`${file} does not end with a newline`);
    for (const line of text.split("\n")) {
      if (line === "") continue;
      rows.push(JSON.parse(line) as Record<string, unknown>);
    }
  }
  return rows;
}

export interface ParquetTable {
  /** Column name → DuckDB type (VARCHAR, TIMESTAMP, DOUBLE, BIGINT, INTEGER, BOOLEAN). */
  types: Record<string, string>;
  /**
   * The rows with values made comparable: TIMESTAMP as ISO text, BIGINT as number, the rest as DuckDB
   * gives them to JavaScript.
   */
  rows: Record<string, unknown>[];
}

/** Reads Parquet files with DuckDB (`read_parquet` over all of them, union by name). */
export async function readParquet(dir: string, files: readonly string[]): Promise<ParquetTable> {
  const instance = await DuckDBInstance.create(":memory:");
  const connection = await instance.connect();
  try {
    const list = files.map((file) => `'${join(dir, file).replaceAll("'", "''")}'`).join(", ");
    // hive_partitioning off: partition columns come from the records themselves, not the path.
    const reader = await connection.runAndReadAll(
      `SELECT * FROM read_parquet([${list}], union_by_name = true, hive_partitioning = false)`,
    );
    const names = reader.columnNames();
    const types: Record<string, string> = {};
    // Timestamps are written as instants (isAdjustedToUTC), which DuckDB types TIMESTAMP WITH TIME
    // ZONE; the tests compare instants, so both read as TIMESTAMP here (parquet-readers.test.ts checks
    // the logical type itself).
    reader
      .columnTypes()
      .forEach(
        (type, index) =>
          (types[names[index] as string] = type
            .toString()
            .replace(/^TIMESTAMP WITH TIME ZONE$/, "TIMESTAMP")),
      );
    const rows = reader.getRowObjectsJS().map((row) => {
      const out: Record<string, unknown> = {};
      for (const [name, value] of Object.entries(row)) {
        out[name] =
          value instanceof Date ? value.toISOString() : typeof value === "bigint" ? Number(value) : value;
      }
      return out;
    });
    return { types, rows };
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

export async function readManifest(dir: string): Promise<Manifest> {
  return JSON.parse(await readFile(join(dir, "_manifest.json"), "utf8")) as Manifest;
}

/** The value at a dotted path of a nested record (`job.execution_time.elapsed`); undefined when absent. */
export function valueAt(record: unknown, path: string): unknown {
  let value: unknown = record;
  for (const key of path.split(".")) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/** A source value as a Parquet column of DuckDB type `type` reads back: what the writer must have made of it. */
export function asColumnValue(value: unknown, type: string): unknown {
  if (value === undefined || value === null) return null;
  if (type.startsWith("TIMESTAMP")) return new Date(value as string | number).toISOString();
  if (type === "VARCHAR" && typeof value === "object") return JSON.stringify(value);
  if (type === "VARCHAR") return String(value);
  return value;
}

/** Collects an async iterable. */
export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

/**
 * A record's value for a column named by a dotted path, wherever an NDJSON record holds it: a
 * literal key (`"status.text"`, or every key of a flattened record), nested objects
 * (`{"atr":{"domain_name":…}}`), or a mix of both.
 */
export function valueAnywhere(record: unknown, name: string): unknown {
  if (record === null || typeof record !== "object" || Array.isArray(record)) return undefined;
  const object = record as Record<string, unknown>;
  if (Object.hasOwn(object, name)) return object[name];
  for (let dot = name.indexOf("."); dot !== -1; dot = name.indexOf(".", dot + 1)) {
    const inner = valueAnywhere(object[name.slice(0, dot)], name.slice(dot + 1));
    if (inner !== undefined) return inner;
  }
  return undefined;
}

/**
 * Executes a generated DDL statement in DuckDB and counts the view's rows (`"*"`) and each column's
 * non-null values.
 */
export async function viewColumnCounts(
  ddl: string,
  view: string,
  names: readonly string[],
): Promise<Record<string, number>> {
  const instance = await DuckDBInstance.create(":memory:");
  const connection = await instance.connect();
  try {
    await connection.run(ddl);
    const counts = names.map((name, i) => `count("${name.replaceAll('"', '""')}") AS c${i}`);
    const reader = await connection.runAndReadAll(
      `SELECT count(*) AS c_all${counts.map((count) => `, ${count}`).join("")} FROM "${view}"`,
    );
    const row = reader.getRowObjectsJS()[0] ?? {};
    const result: Record<string, number> = { "*": Number(row["c_all"]) };
    names.forEach((name, i) => (result[name] = Number(row[`c${i}`])));
    return result;
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}
