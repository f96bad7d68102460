// Reads a column's value from a row: by key, or, for rows still nested, by dotted path.
import type { Column, Row } from "../core/contracts.js";

/** Reads one column of a row; prepared once per schema so the per-row work is a key lookup. */
export type ColumnReader = (row: Row) => unknown;

/** A key some object inherits (`constructor`, `__proto__`, `toString`): only an own-key check tells. */
const isInherited = (key: string): boolean => key in Object.prototype;

/**
 * `job.id` is first a key (flattened rows keep dotted keys); only when the row has no such key is it
 * walked as a path (`row.job.id`), so both shapes give the same column. Only a row's own keys are
 * read: a field named `constructor` or `__proto__` that a record lacks is missing, not a built-in.
 * Rows are plain objects (parsed JSON, spreads of it), so a key no object inherits is read directly:
 * undefined then means missing, and the own-key check, a third of a Parquet row group's reading, is
 * left for the names that need it and for a dotted key that is present but undefined.
 */
export function createColumnReader(column: Column): ColumnReader {
  const name = column.name;
  const parts = name.split(".");
  if (isInherited(name) || parts.some(isInherited)) return ownKeyReader(name, parts);
  if (parts.length === 1) return (row) => row[name];
  return (row) => {
    const flat = row[name];
    if (flat !== undefined) return flat;
    const nested = readPath(row, parts, false);
    return nested !== undefined && Object.hasOwn(row, name) ? undefined : nested;
  };
}

function ownKeyReader(name: string, parts: readonly string[]): ColumnReader {
  if (parts.length === 1) return (row) => (Object.hasOwn(row, name) ? row[name] : undefined);
  return (row) => (Object.hasOwn(row, name) ? row[name] : readPath(row, parts, true));
}

/** The value at `parts` under `row`; `own`: only own keys count (a part some object inherits). */
function readPath(row: Row, parts: readonly string[], own: boolean): unknown {
  let current: unknown = row;
  for (let i = 0; i < parts.length; i++) {
    if (current === null || typeof current !== "object" || Array.isArray(current)) return undefined;
    const part = parts[i] as string;
    if (own && !Object.hasOwn(current, part)) return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}
