// Compares what a warehouse reads (rows with the reader's column types) with the reference model's
// rows, as multisets keyed by (_index, _id), values normalised: instants as epoch ms, integers as
// their digits, strings exact with lone surrogates as U+FFFD (the documented rule).
import type { ModelRow } from "./reference-model.js";

export type ViewRow = Record<string, unknown>;

/** A partition column the path template gives, and the value a row's own time and fields give it. */
export interface PartitionColumn {
  name: string;
  expected: (row: ModelRow) => unknown;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** A lone surrogate becomes U+FFFD, as the exporter documents (and String#toWellFormed does). */
function wellFormed(text: string): string {
  return text.replace(LONE_SURROGATE, "\uFFFD");
}

/** A date-time's instant; one written without a zone means UTC (the service's rule), whatever this process's zone. */
function instantOf(text: string): number {
  return Date.parse(/T[\d:.]+$/.test(text) ? `${text}Z` : text);
}

/** One canonical text per value, by the type the reader declared for the column. */
export function normalise(value: unknown, type: string): string {
  if (value === undefined || value === null) return "null";
  if (type.startsWith("TIMESTAMP")) {
    const ms =
      value instanceof Date ? value.getTime() : typeof value === "string" ? instantOf(value) : Number(value);
    return Number.isNaN(ms) ? `unreadable instant ${String(value)}` : `instant ${ms}`;
  }
  if (type === "DATE") {
    const date = value instanceof Date ? value.toISOString() : String(value);
    return `date ${date.slice(0, 10)}`;
  }
  if (/^(BIGINT|INTEGER|SMALLINT|TINYINT|HUGEINT|UBIGINT|UINTEGER|INT64|INT32)$/.test(type)) {
    if (typeof value === "bigint") return `int ${value}`;
    if (typeof value === "number" && Number.isInteger(value)) return `int ${BigInt(value)}`;
    if (typeof value === "string" && /^-?\d+$/.test(value)) return `int ${BigInt(value)}`;
    return `not an integer ${String(value)}`;
  }
  if (type === "DOUBLE" || type === "FLOAT") return `number ${Number(value)}`;
  if (type === "BOOLEAN") return `boolean ${String(value)}`;
  if (type === "JSON") return `json ${JSON.stringify(typeof value === "string" ? JSON.parse(value) : value)}`;
  if (typeof value === "string") return `text ${JSON.stringify(wellFormed(value))}`;
  if (typeof value === "object")
    return `text ${JSON.stringify(value, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v))}`;
  return `text ${JSON.stringify(String(value))}`;
}

/** Differences between the view and the model; empty when the warehouse sees exactly the service's records. */
export function compareView(
  model: readonly ModelRow[],
  view: readonly ViewRow[],
  types: Readonly<Record<string, string>>,
  partitions: readonly PartitionColumn[],
): string[] {
  const problems: string[] = [];
  const add = (problem: string) => {
    if (problems.length < 12) problems.push(problem);
  };
  const byKey = new Map<string, ModelRow>(model.map((row) => [row.key, row]));
  if (byKey.size !== model.length) add("the service itself gave one (_index, _id) twice");
  const partitionNames = new Set(partitions.map((partition) => partition.name));
  const seen = new Set<string>();
  for (const row of view) {
    const key = `${String(row["_index"])}|${String(row["_id"])}`;
    if (seen.has(key)) add(`row ${key} is read twice`);
    seen.add(key);
    const want = byKey.get(key);
    if (want === undefined) {
      add(`row ${key} is read but the service holds no such record: ${describe(row)}`);
      continue;
    }
    for (const [name, type] of Object.entries(types)) {
      const got = normalise(row[name], type);
      const partition = partitions.find((candidate) => candidate.name === name);
      if (partition !== undefined && !want.columns.has(name)) {
        const expected = normalise(partition.expected(want), type);
        if (got !== expected) add(`row ${key}: partition ${name} is ${got}, its own record says ${expected}`);
        continue;
      }
      if (want.columns.has(name)) {
        const expected = normalise(want.columns.get(name), type);
        if (got !== expected)
          add(`row ${key}: column ${name} (${type}) is ${got}, the service sent ${expected}`);
      } else if (got !== "null" && !want.unnamed.some((value) => normalise(value, type) === got))
        add(`row ${key}: column ${name} (${type}) is ${got}, but the record has no such field`);
    }
    for (const [name, value] of want.columns) {
      if (value === null || value === undefined || Object.hasOwn(types, name) || partitionNames.has(name))
        continue;
      add(`row ${key}: field ${name} = ${normalise(value, "VARCHAR")} has no column in the view`);
    }
  }
  const missing = model.filter((row) => !seen.has(row.key));
  if (missing.length > 0)
    add(
      `${missing.length} of ${model.length} records are not read, e.g. ${missing
        .slice(0, 3)
        .map((row) => row.key)
        .join(", ")}`,
    );
  return problems;
}

function describe(row: ViewRow): string {
  const text = JSON.stringify(row, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v));
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}
