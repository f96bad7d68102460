// Turns the service's field mappings (search-engine types) into output columns.
import type { Column, ColumnType } from "./contracts.js";

/** One entry of a v3 mappings response. */
export interface MappingField {
  name: string;
  type: string;
}

// A Map, not an object: a mapping type named `constructor` or `__proto__` must not read a built-in.
const TYPES: ReadonlyMap<string, ColumnType> = new Map(
  Object.entries({
    keyword: "string",
    text: "string",
    match_only_text: "string",
    constant_keyword: "string",
    wildcard: "string",
    ip: "string",
    version: "string",
    alias: "string",
    date: "timestamp",
    date_nanos: "timestamp",
    float: "double",
    double: "double",
    half_float: "double",
    scaled_float: "double",
    long: "int64",
    unsigned_long: "int64",
    integer: "int32",
    short: "int32",
    byte: "int32",
    boolean: "boolean",
    object: "json",
    nested: "json",
    flattened: "json",
    geo_point: "json",
  } satisfies Record<string, ColumnType>),
);

/**
 * keyword/text → string, date → timestamp, float → double, long → int64, integer → int32,
 * boolean → boolean, alias → string; types we do not know become strings, which hold any scalar.
 */
export function mappingTypeToColumnType(type: string): ColumnType {
  return TYPES.get(type) ?? "string";
}

const isInteger = (type: ColumnType): boolean => type === "int32" || type === "int64";

const COMPANION = /^(.+)\.(keyword|text)$/;

/**
 * A multi-field appears twice in the mappings (`job.name` and its `job.name.text` companion) but
 * once in `_source`; the companion is dropped when its parent field is mapped. A field listed twice
 * with the same column type is one column (integer and long: one int64 column); listed with two
 * other types it stays twice, so the sink's column check refuses it instead of letting either win.
 */
export function columnsFromMappings(fields: readonly MappingField[]): Column[] {
  const names = new Set(fields.map((field) => field.name));
  const columnsByName = new Map<string, Column[]>();
  const columns: Column[] = [];
  for (const field of fields) {
    const companionOf = COMPANION.exec(field.name)?.[1];
    const isCompanion =
      companionOf !== undefined &&
      names.has(companionOf) &&
      (field.type === "keyword" || field.type === "text");
    if (isCompanion) continue;
    const type = mappingTypeToColumnType(field.type);
    const earlier = columnsByName.get(field.name);
    if (earlier?.some((column) => column.type === type) === true) continue;
    // integer beside long (two app types, two index versions) is one int64 column: no value is lost.
    const narrower = earlier?.find((column) => isInteger(column.type) && isInteger(type));
    if (narrower !== undefined) {
      narrower.type = "int64";
      continue;
    }
    const column = { name: field.name, type };
    columnsByName.set(field.name, [...(earlier ?? []), column]);
    columns.push(column);
  }
  return columns;
}
