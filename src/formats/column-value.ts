// Reads a column's value from a row: by key, or, for rows still nested, by dotted path.
import type { Column, Row } from "../core/contracts.js";

/** Reads one column of a row; prepared once per schema so the per-row work is a key lookup. */
export type ColumnReader = (row: Row) => unknown;

/**
 * `job.id` is first a key (flattened rows keep dotted keys); only when the row has no such key is it
 * walked as a path (`row.job.id`), so both shapes give the same column. Only a row's own keys are
 * read: a field named `constructor` or `__proto__` that a record lacks is missing, not a built-in.
 */
export function createColumnReader(column: Column): ColumnReader {
  const name = column.name;
  if (!name.includes(".")) return (row) => (Object.hasOwn(row, name) ? row[name] : undefined);
  const parts = name.split(".");
  return (row) => (Object.hasOwn(row, name) ? row[name] : readPath(row, parts));
}

function readPath(row: Row, parts: readonly string[]): unknown {
  let current: unknown = row;
  for (const part of parts) {
    if (current === null || typeof current !== "object" || Array.isArray(current)) return undefined;
    if (!Object.hasOwn(current, part)) return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}
