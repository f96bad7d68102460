// What an export should hold, computed independently of the exporter from the emulator's own hits:
// records as rows, flattening, and aggregation results counted from the hits themselves.
import type { EmulatedHit } from "../../src/emulator/server.js";
import { asColumnValue, valueAt } from "./read-output.js";

export const HOUR_MS = 3_600_000;

/** A hit as the exporter's record: `_id`, `_index`, then `_source`. */
export function hitRecord(hit: EmulatedHit): Record<string, unknown> {
  return { _id: hit._id, _index: hit._index, ...(hit._source as Record<string, unknown>) };
}

/** Nested objects to top-level keys joined by `separator`; arrays and empty objects stay values. */
export function flattenRecord(record: Record<string, unknown>, separator = "."): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const visit = (prefix: string, value: Record<string, unknown>): void => {
    for (const [key, inner] of Object.entries(value)) {
      const name = prefix === "" ? key : `${prefix}${separator}${key}`;
      const nested =
        inner !== null && typeof inner === "object" && !Array.isArray(inner) && Object.keys(inner).length > 0;
      if (nested) visit(name, inner as Record<string, unknown>);
      else out[name] = inner;
    }
  };
  visit("", record);
  return out;
}

/** The start of the slice of length `sliceMs` (aligned to the epoch) holding `timestamp`, as ISO text. */
export function sliceStartOf(timestamp: unknown, sliceMs: number): string {
  const ms = Date.parse(String(timestamp));
  return new Date(ms - (ms % sliceMs)).toISOString();
}

/**
 * The row a Parquet file should hold for `record`, for the columns DuckDB read (`types`): each column's
 * value from the record (a literal key first, then the dotted path), converted as the column type reads.
 */
export function parquetRowOf(
  record: Record<string, unknown>,
  types: Readonly<Record<string, string>>,
): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (const [name, type] of Object.entries(types)) {
    const value = name in record ? record[name] : valueAt(record, name);
    row[name] = asColumnValue(value, type);
  }
  return row;
}

/** Groups values by a key into counts. */
export function countBy<T>(items: Iterable<T>, key: (item: T) => string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return counts;
}

/** Items grouped by a key, each group folded from `start()` by `add`: what an aggregation computes. */
export function groupBy<T, G>(
  items: Iterable<T>,
  key: (item: T) => string,
  start: () => G,
  add: (group: G, item: T) => void,
): Map<string, G> {
  const groups = new Map<string, G>();
  for (const item of items) {
    const group = groups.get(key(item)) ?? start();
    add(group, item);
    groups.set(key(item), group);
  }
  return groups;
}

/** The key of an aggregation's row or of the group a hit falls in: its bucket values, in order. */
export function bucketKey(...values: unknown[]): string {
  return values.map(String).join("|");
}
