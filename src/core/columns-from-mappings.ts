// Turns the service's field mappings (search-engine types) into output columns. The mappings a run
// combines (two app types, two index versions) may give one field two types; its column then takes
// the narrowest type that holds the values of both, and the caller is told so it can warn.
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

/**
 * The narrowest column type that holds every value of both: int32 fits int64 and double exactly; an
 * int64 past 2^53 does not fit a double, nor a fraction an int64, so the two meet in text, which keeps
 * the digits as sent; JSON text holds objects and scalars alike; any other two scalars meet in text.
 */
export function widerColumnType(a: ColumnType, b: ColumnType): ColumnType {
  if (a === b) return a;
  if (a === "json" || b === "json") return "json";
  const pair = new Set([a, b]);
  if (pair.has("int32") && pair.has("int64")) return "int64";
  if (pair.has("int32") && pair.has("double")) return "double";
  return "string";
}

/** A field the combined mappings give more than one type, and the column type that holds them all. */
export interface WidenedField {
  name: string;
  /** The mapping types as listed, each once. */
  types: readonly string[];
  column: ColumnType;
}

const COMPANION = /^(.+)\.(keyword|text)$/;

/**
 * A multi-field appears twice in the mappings (`job.name` and its `job.name.text` companion) but
 * once in `_source`; the companion is dropped when its parent field is mapped. A field listed more
 * than once is one column, in the place of its first entry: `alias` (another name of a field, whose
 * type the mappings do not say) takes the type of the field's other entries, and the rest widen
 * (`widerColumnType`). A field listed only as `alias` is text. Returns the columns, and the fields
 * whose column had to hold several types.
 */
export function readMappings(fields: readonly MappingField[]): {
  columns: Column[];
  widened: WidenedField[];
} {
  const names = new Set(fields.map((field) => field.name));
  const typesByName = new Map<string, string[]>();
  for (const field of fields) {
    const companionOf = COMPANION.exec(field.name)?.[1];
    const isCompanion =
      companionOf !== undefined &&
      names.has(companionOf) &&
      (field.type === "keyword" || field.type === "text");
    if (isCompanion) continue;
    const types = typesByName.get(field.name);
    if (types === undefined) typesByName.set(field.name, [field.type]);
    else if (!types.includes(field.type)) types.push(field.type);
  }
  const columns: Column[] = [];
  const widened: WidenedField[] = [];
  for (const [name, types] of typesByName) {
    const typed = types.filter((type) => type !== "alias");
    const column = (typed.length === 0 ? types : typed).map(mappingTypeToColumnType).reduce(widerColumnType);
    columns.push({ name, type: column });
    if (types.length > 1) widened.push({ name, types, column });
  }
  return { columns, widened };
}

/** The columns of the mappings (see `readMappings`). */
export function columnsFromMappings(fields: readonly MappingField[]): Column[] {
  return readMappings(fields).columns;
}
