// The small reference model of what the documented options mean, applied to the emulator's own
// records: a hit's meaning (JSON.parse's, with exact integers), the transforms, the column naming,
// and the partition values a row's own time and fields give. Kept obviously right rather than fast.
import { createHash } from "node:crypto";
import type { EmulatedHit } from "../../src/emulator/server.js";
import { RawJson } from "../../src/emulator/raw-json.js";
import type { FilterCondition, TransformCase } from "./fuzz-case.js";

export type Record_ = Record<string, unknown>;

/** A value as the wire text means it: raw values by their meaning (a bigint for exact digits). */
export function meaningOf(value: unknown): unknown {
  if (value instanceof RawJson) return value.value;
  if (Array.isArray(value)) return value.map(meaningOf);
  if (value !== null && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, meaningOf(inner)]));
  return value;
}

/** The exporter's record of a hit: `_id`, `_index` (the hit's own win), then `_source`. */
export function recordOfHit(hit: EmulatedHit): Record_ {
  return { ...(meaningOf(hit._source) as Record_), _id: hit._id, _index: hit._index };
}

const isObject = (value: unknown): value is Record_ =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/** A field by name: the literal key first, then the dotted path through nested objects (docs/pipelines.md). */
export function fieldValue(record: Record_, name: string): unknown {
  if (Object.hasOwn(record, name)) return record[name];
  for (let dot = name.indexOf("."); dot !== -1; dot = name.indexOf(".", dot + 1)) {
    const parent = record[name.slice(0, dot)];
    if (isObject(parent)) {
      const inner = fieldValue(parent, name.slice(dot + 1));
      if (inner !== undefined) return inner;
    }
  }
  return undefined;
}

function removeField(record: Record_, name: string): void {
  if (Object.hasOwn(record, name)) {
    delete record[name];
    return;
  }
  for (let dot = name.indexOf("."); dot !== -1; dot = name.indexOf(".", dot + 1)) {
    const parent = record[name.slice(0, dot)];
    if (isObject(parent)) removeField(parent, name.slice(dot + 1));
  }
}

function setNested(target: Record_, path: readonly string[], value: unknown): void {
  let into = target;
  for (const key of path.slice(0, -1)) {
    if (!isObject(into[key])) into[key] = {};
    into = into[key] as Record_;
  }
  into[path[path.length - 1] as string] = value;
}

function flatten(record: Record_, separator: string): Record_ {
  const out: Record_ = {};
  const visit = (prefix: string, value: Record_): void => {
    for (const [key, inner] of Object.entries(value)) {
      // A dotted key names a path, as a column does (docs/transforms.md, flatten).
      const part = key.split(".").join(separator);
      const name = prefix === "" ? part : `${prefix}${separator}${part}`;
      if (isObject(inner) && Object.keys(inner).length > 0) visit(name, inner);
      else out[name] = inner;
    }
  };
  visit("", record);
  return out;
}

/** What `add: { from }` reads: the pipeline's name and the bounds of the record's slice. */
export interface RunFacts {
  pipelineName: string;
  /** The slice a record's instant falls in, as ISO 8601 instants; undefined when the model cannot know. */
  sliceOf: (time: number) => { start: string; end: string } | undefined;
}

/** `filter`'s meaning (docs/pipelines.md): no type conversion; `not_equals` holds without the field. */
function holds(condition: FilterCondition, record: Record_): boolean {
  if ("not" in condition) return !holds(condition.not, record);
  const value = fieldValue(record, condition.field);
  const present = value !== undefined;
  if ("equals" in condition) return present && value === condition.equals;
  if ("not_equals" in condition) return !present || value !== condition.not_equals;
  if ("in" in condition) return present && condition.in.includes(value as string);
  return (present && value !== null) === condition.exists;
}

/** `redact`'s replacement: hex SHA-256 of the value's text, or the mask (null and absent stay). */
function redacted(value: unknown, method: "hash" | "mask", keepLast: number): string {
  const text =
    typeof value === "string" ? value : typeof value === "object" ? JSON.stringify(value) : String(value);
  if (method === "hash") return createHash("sha256").update(text).digest("hex");
  const visible = keepLast > 0 ? text.slice(-keepLast) : "";
  return "*".repeat(Math.max(0, text.length - visible.length)) + visible;
}

function setField(record: Record_, name: string, value: unknown): void {
  if (Object.hasOwn(record, name)) {
    record[name] = value;
    return;
  }
  for (let dot = name.indexOf("."); dot !== -1; dot = name.indexOf(".", dot + 1)) {
    const parent = record[name.slice(0, dot)];
    if (isObject(parent) && fieldValue(parent, name.slice(dot + 1)) !== undefined)
      return setField(parent, name.slice(dot + 1), value);
  }
}

/** `source.fields`: `_source` restricted to the listed names (as `select` keeps them), `_id` and `_index` kept. */
export function projectFields(record: Record_, fields: readonly string[] | undefined): Record_ {
  if (fields === undefined) return record;
  const out = applySelect(record, [...fields]);
  return { ...out, _id: record["_id"], _index: record["_index"] };
}

function applySelect(record: Record_, fields: readonly string[]): Record_ {
  const out: Record_ = {};
  for (const name of fields) {
    const value = fieldValue(record, name);
    if (value === undefined) continue;
    if (Object.hasOwn(record, name)) out[name] = value;
    else setNested(out, name.split("."), value);
  }
  return out;
}

/** The transforms of docs/pipelines.md, one record at a time; undefined when a filter drops it. */
export function applyTransforms(
  input: Record_,
  transforms: readonly TransformCase[],
  run: RunFacts = { pipelineName: "fuzz-case", sliceOf: () => undefined },
): Record_ | undefined {
  let record = structuredClone(input);
  const time = Date.parse(String(input["@timestamp"]));
  for (const transform of transforms) {
    if ("filter" in transform) {
      if (!holds(transform.filter, record)) return undefined;
    } else if ("redact" in transform) {
      const { fields, method, keep_last: keepLast = 0 } = transform.redact;
      for (const name of fields) {
        const value = fieldValue(record, name);
        if (value !== undefined && value !== null) setField(record, name, redacted(value, method, keepLast));
      }
    } else if ("flatten" in transform) record = flatten(record, transform.flatten.separator);
    else if ("drop" in transform) for (const name of transform.drop.fields) removeField(record, name);
    else if ("rename" in transform) {
      for (const [from, to] of Object.entries(transform.rename)) {
        const value = fieldValue(record, from);
        if (value === undefined) continue;
        removeField(record, from);
        record[to] = value;
      }
    } else if ("add" in transform) {
      for (const [name, spec] of Object.entries(transform.add)) {
        if ("value" in spec) record[name] = spec.value;
        else if (spec.from === "pipeline_name") record[name] = run.pipelineName;
        else record[name] = run.sliceOf(time)?.[spec.from === "slice_start" ? "start" : "end"];
      }
    } else record = applySelect(record, transform.select.fields);
  }
  return record;
}

/** docs/warehouse.md's snake_case: no leading @, dots to _, camelCase split, lower case, other runs to _, _ before a digit. */
export function snakeCase(name: string): string {
  let text = name.replace(/^@/, "").split(".").join("_");
  text = text.replace(/([a-z0-9])([A-Z])/g, "$1_$2").replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2");
  text = text.toLowerCase().replace(/[^a-z0-9_]+/g, "_");
  return /^[0-9]/.test(text) ? `_${text}` : text;
}

export interface ModelRow {
  /** `_index` and `_id`: what identifies a record. */
  key: string;
  /** Column name → value, for every leaf of the transformed record (empty objects hold no column). */
  columns: Map<string, unknown>;
  /** Values of fields whose names collide under the naming: their column name is the product's to choose. */
  unnamed: unknown[];
  /** The record's own instant (ms). */
  time: number;
}

/** The row a warehouse should see for a transformed record under a sink's naming. */
export function modelRow(hitRecord: Record_, transformed: Record_, naming: "as_is" | "snake_case"): ModelRow {
  const leaves = new Map<string, unknown>();
  const visit = (prefix: string, value: Record_): void => {
    for (const [key, inner] of Object.entries(value)) {
      const path = prefix === "" ? key : `${prefix}.${key}`;
      if (isObject(inner)) visit(path, inner);
      else leaves.set(path, inner);
    }
  };
  visit("", transformed);
  const byName = new Map<string, string[]>();
  for (const path of leaves.keys()) {
    const name = naming === "snake_case" ? snakeCase(path) : path;
    byName.set(name, [...(byName.get(name) ?? []), path]);
  }
  const columns = new Map<string, unknown>();
  const unnamed: unknown[] = [];
  for (const [name, paths] of byName) {
    if (paths.length === 1) columns.set(name, leaves.get(paths[0] as string));
    else for (const path of paths) unnamed.push(leaves.get(path));
  }
  const time = Date.parse(String(hitRecord["@timestamp"]));
  return { key: `${String(hitRecord["_index"])}|${String(hitRecord["_id"])}`, columns, unnamed, time };
}
