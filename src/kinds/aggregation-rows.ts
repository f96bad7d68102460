// Turns an aggregation response into flat rows: one row per bucket path, with the bucket keys as
// columns (named after their aggregation) and doc_count and metric values beside them.
import type { Column, Row } from "../core/contracts.js";

type AggDefinition = Readonly<Record<string, unknown>>;
type Aggs = Readonly<Record<string, AggDefinition>>;

const BUCKET_KINDS = new Set(["terms", "date_histogram", "histogram"]);
const SINGLE_BUCKET_KINDS = new Set(["filter"]);
const METRIC_KINDS = new Set(["avg", "min", "max", "sum", "value_count", "cardinality"]);

function kindOf(definition: AggDefinition): string | undefined {
  return Object.keys(definition).find((key) => key !== "aggs" && key !== "aggregations" && key !== "meta");
}

function subAggs(definition: AggDefinition): Aggs {
  const inner = definition.aggs ?? definition.aggregations;
  return inner !== null && typeof inner === "object" ? (inner as Aggs) : {};
}

function asRecord(value: unknown): Readonly<Record<string, unknown>> {
  return value !== null && typeof value === "object" ? (value as Record<string, unknown>) : {};
}

/** A date histogram's key as ISO text (the engine gives epoch milliseconds and key_as_string). */
function bucketKey(kind: string, bucket: Readonly<Record<string, unknown>>): unknown {
  if (kind === "date_histogram" && typeof bucket.key === "number") return new Date(bucket.key).toISOString();
  return bucket.key ?? null;
}

function walk(
  aggs: Aggs,
  result: Readonly<Record<string, unknown>>,
  context: Record<string, unknown>,
  prefix: string,
): Row[] {
  const row: Record<string, unknown> = { ...context };
  const bucketAggs: [string, string, AggDefinition][] = [];
  for (const [name, definition] of Object.entries(aggs)) {
    const kind = kindOf(definition);
    if (kind === undefined) continue;
    const value = asRecord(result[name]);
    if (METRIC_KINDS.has(kind)) row[`${prefix}${name}`] = value.value ?? null;
    else if (SINGLE_BUCKET_KINDS.has(kind)) {
      row[`${prefix}${name}.doc_count`] = value.doc_count ?? 0;
      const nested = walk(subAggs(definition), value, {}, `${prefix}${name}.`);
      // A filter's own sub-buckets would multiply rows of its siblings; keep its single-row values only.
      if (nested.length === 1) Object.assign(row, nested[0]);
    } else if (BUCKET_KINDS.has(kind)) bucketAggs.push([name, kind, definition]);
  }
  if (bucketAggs.length === 0) return [row];
  const rows: Row[] = [];
  for (const [name, kind, definition] of bucketAggs) {
    const buckets = asRecord(result[name]).buckets;
    if (!Array.isArray(buckets)) continue;
    for (const bucket of buckets) {
      const record = asRecord(bucket);
      const inner = {
        ...row,
        [`${prefix}${name}`]: bucketKey(kind, record),
        doc_count: record.doc_count ?? 0,
      };
      rows.push(...walk(subAggs(definition), record, inner, prefix));
    }
  }
  return rows;
}

/**
 * Rows of an aggregation response, each with `base` (such as the slice's bounds) first.
 * @example aggregationRows({ by_state: { terms: { field: "job.state" } } }, response.aggregations, {})
 *   // → [{ by_state: "DONE", doc_count: 12 }, { by_state: "FAILED", doc_count: 3 }]
 */
export function aggregationRows(
  aggs: Aggs,
  aggregations: unknown,
  base: Readonly<Record<string, unknown>>,
): Row[] {
  return walk(aggs, asRecord(aggregations), { ...base }, "");
}

/** The columns `aggregationRows` can produce for a definition, in a stable order. */
export function aggregationColumns(aggs: Aggs, prefix = ""): Column[] {
  const columns: Column[] = [];
  let hasBuckets = false;
  for (const [name, definition] of Object.entries(aggs)) {
    const kind = kindOf(definition);
    if (kind === undefined) continue;
    if (METRIC_KINDS.has(kind)) {
      columns.push({
        name: `${prefix}${name}`,
        type: kind === "value_count" || kind === "cardinality" ? "int64" : "double",
      });
    } else if (SINGLE_BUCKET_KINDS.has(kind)) {
      columns.push({ name: `${prefix}${name}.doc_count`, type: "int64" });
      columns.push(
        ...aggregationColumns(subAggs(definition), `${prefix}${name}.`).filter((c) => c.name !== "doc_count"),
      );
    } else if (BUCKET_KINDS.has(kind)) {
      hasBuckets = true;
      columns.push({
        name: `${prefix}${name}`,
        type: kind === "date_histogram" ? "timestamp" : kind === "histogram" ? "double" : "string",
      });
      columns.push(...aggregationColumns(subAggs(definition), prefix).filter((c) => c.name !== "doc_count"));
    }
  }
  if (hasBuckets && prefix === "") columns.push({ name: "doc_count", type: "int64" });
  const seen = new Set<string>();
  return columns.filter((column) => (seen.has(column.name) ? false : (seen.add(column.name), true)));
}
