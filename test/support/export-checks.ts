// Checks every end-to-end test makes of a finished export: the marker, the manifest's counts against
// the rows read back, the files it lists against the files on disk; comparisons of records; and the rows
// of an aggregation, one per expected group.
import { access } from "node:fs/promises";
import { join } from "node:path";
import { expect } from "vitest";
import type { Manifest } from "../../src/pipeline/output-state/manifest.js";
import { listDataFiles, readManifest, readNdjson, readParquet } from "./read-output.js";

export interface CheckedExport {
  manifest: Manifest;
  files: string[];
}

/**
 * The export in `dir` is complete and consistent: `_SUCCESS` exists, the manifest is complete, lists
 * exactly the data files on disk, and its row totals equal `rows` (what the test read back); per slice
 * the rows written equal the rows read and the count the service reported (when it reported one).
 */
export async function checkCompleteExport(dir: string, rows: number): Promise<CheckedExport> {
  await access(join(dir, "_SUCCESS"));
  const manifest = await readManifest(dir);
  const files = await listDataFiles(dir);
  expect(manifest.complete).toBe(true);
  expect(manifest.files.map((file) => file.path).sort()).toEqual(files);
  expect(manifest.totals.rows).toBe(rows);
  expect(manifest.totals.files).toBe(files.length);
  for (const slice of manifest.slices) {
    expect(slice.duplicates, `duplicates in slice ${slice.id}`).toBe(0);
    if (slice.expected !== null) expect(slice.read, `read vs expected in ${slice.id}`).toBe(slice.expected);
  }
  return { manifest, files };
}

/** Ids that occur more than once. */
export function repeatedIds(rows: readonly Record<string, unknown>[]): string[] {
  const seen = new Set<string>();
  const repeated: string[] = [];
  for (const row of rows) {
    const id = String(row._id);
    if (seen.has(id)) repeated.push(id);
    seen.add(id);
  }
  return repeated;
}

/** Rows keyed by `_id`, after checking that no id repeats. */
export function byId<T extends Record<string, unknown>>(rows: readonly T[]): Map<string, T> {
  expect(repeatedIds(rows)).toEqual([]);
  return new Map(rows.map((row) => [String(row._id), row]));
}

/** An aggregation's rows read back, by key, and for Parquet the column types DuckDB read (none for NDJSON). */
export interface AggregationRows {
  rows: Map<string, Record<string, unknown>>;
  types: Record<string, string>;
}

/**
 * The aggregation export in `dir` holds one row for each of the expected `groups`: it is complete with
 * as many rows as there are groups, no two rows have the same key (`keyOf`), and the keys are the groups'.
 */
export async function readAggregationRows(
  dir: string,
  format: "parquet" | "ndjson",
  groups: ReadonlyMap<string, unknown>,
  keyOf: (row: Record<string, unknown>) => string,
): Promise<AggregationRows> {
  const { files } = await checkCompleteExport(dir, groups.size);
  const table =
    format === "parquet" ? await readParquet(dir, files) : { types: {}, rows: await readNdjson(dir, files) };
  const rows = new Map(table.rows.map((row) => [keyOf(row), row]));
  expect(rows.size, "rows with the same key").toBe(table.rows.length);
  expect([...rows.keys()].sort()).toEqual([...groups.keys()].sort());
  return { rows, types: table.types };
}
