// Changes to a kind's fields, as a service upgrade makes them: a field added, removed or given another
// type. The mappings report the change and every record carries it, so a client sees a consistent
// service that is simply not the one of yesterday.
import type { MappingType } from "../api/wire/fields.js";
import type { MappingField } from "../core/columns-from-mappings.js";
import { isJsonObject } from "../core/json-object.js";
import { isoTime } from "./awkward.js";
import { hashString } from "./random.js";
import type { Source } from "./records.js";

export interface FieldChanges {
  /** New fields and their mapping types; every record carries a value of that type. */
  add?: Readonly<Record<string, MappingType>>;
  /** Fields gone from the mappings (with their companions) and from every record. */
  remove?: readonly string[];
  /** Fields whose mapping type changes; every record carries its value converted. */
  retype?: Readonly<Record<string, MappingType>>;
  /**
   * Entries the mappings list besides the kind's own, as they are (records unchanged): a field
   * listed twice with two types, a type no client knows (`constructor`), a name of any length or
   * characters, or a hundred thousand of them — what a misbehaving service may send.
   */
  mappings?: readonly MappingField[];
}

/** The mappings after the changes, sorted by name; a removed field takes its companions (`job.name.text`) with it. */
export function changeMappings(
  fields: readonly MappingField[],
  changes: FieldChanges | undefined,
): MappingField[] {
  if (changes === undefined) return [...fields].sort(byName);
  const removed = changes.remove ?? [];
  const kept = fields
    .filter((field) => !removed.some((name) => field.name === name || field.name.startsWith(`${name}.`)))
    .map((field) => ({ name: field.name, type: changes.retype?.[field.name] ?? field.type }));
  const names = new Set(kept.map((field) => field.name));
  for (const [name, type] of Object.entries(changes.add ?? {}))
    if (!names.has(name)) kept.push({ name, type });
  // The raw entries go after the kind's own: a stable sort keeps a field's own entry first.
  for (const { name, type } of changes.mappings ?? []) kept.push({ name, type });
  return kept.sort(byName);
}

function byName(a: MappingField, b: MappingField): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/** Sets a field of a record as JSON.parse would: an own property even when it is named `__proto__`. */
function setField(target: Source, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
}

/** A value of a mapping type, derived from the record's id so every read of a record agrees. */
function valueOf(type: MappingType, name: string, id: string, ts: number): unknown {
  const h = hashString(0x5eed, `${id}|${name}`);
  switch (type) {
    case "date":
      return isoTime(ts - (h % 3_600_000));
    case "float":
      return (h % 100_000) / 100;
    case "long":
    case "integer":
      return h % 10_000;
    case "boolean":
      return h % 2 === 0;
    default:
      return `${name.split(".").at(-1) ?? name}-${h % 1000}`;
  }
}

/** A value as another mapping type would index it. */
function convert(value: unknown, type: MappingType, name: string, id: string, ts: number): unknown {
  if (value === null || value === undefined) return value;
  switch (type) {
    case "keyword":
    case "text":
    case "alias":
      return typeof value === "object" ? JSON.stringify(value) : String(value);
    case "float":
    case "long":
    case "integer": {
      const number = typeof value === "number" ? value : Number(value);
      if (!Number.isFinite(number)) return valueOf(type, name, id, ts);
      return type === "float" ? number : Math.trunc(number);
    }
    case "boolean":
      return typeof value === "boolean" ? value : Boolean(value);
    case "date":
      return typeof value === "number" ? isoTime(value) : valueOf(type, name, id, ts);
  }
}

/** The object a dotted name's last part lives in (created on the way when asked), and that part. */
function parentOf(source: Source, name: string, create: boolean): [Source | undefined, string] {
  const parts = name.split(".");
  const key = parts.at(-1) ?? name;
  let current: Source = source;
  for (const part of parts.slice(0, -1)) {
    const next = Object.hasOwn(current, part) ? current[part] : undefined;
    if (isJsonObject(next)) current = next;
    else if (create) {
      const created: Source = {};
      setField(current, part, created);
      current = created;
    } else return [undefined, key];
  }
  return [current, key];
}

/** Applies the changes to one generated `_source` (in place; it was built for this read). */
export function changeRecord(
  source: Source,
  changes: FieldChanges | undefined,
  id: string,
  ts: number,
): Source {
  if (changes === undefined) return source;
  for (const name of changes.remove ?? []) {
    const [parent, key] = parentOf(source, name, false);
    if (parent !== undefined) delete parent[key];
  }
  for (const [name, type] of Object.entries(changes.retype ?? {})) {
    const [parent, key] = parentOf(source, name, false);
    if (parent !== undefined && Object.hasOwn(parent, key))
      setField(parent, key, convert(parent[key], type, name, id, ts));
  }
  for (const [name, type] of Object.entries(changes.add ?? {})) {
    const [parent, key] = parentOf(source, name, true);
    if (parent !== undefined) setField(parent, key, valueOf(type, name, id, ts));
  }
  return source;
}
