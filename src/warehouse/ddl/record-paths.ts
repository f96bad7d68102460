// Where an NDJSON record holds a column's value. Under `column_names: as_is` records are written as
// the transforms leave them: without `flatten`, `atr.domain_name` is `{"atr":{"domain_name":…}}`; a
// field the service sent with a dotted key, or one a transform wrote where no parent object was, is a
// literal `"atr.domain_name"` key. The exporter's own reader (transforms/field-path.ts) tries the
// literal key first, then each split at a dot; the DDL reads the same places in the same order.
import type { SchemaColumn } from "../output-schema.js";

/** How many places one column is looked for at most: the first are the shapes the exporter writes. */
const MAX_PATHS = 64;

/**
 * The key sequences `name` may be stored under, in the order the exporter's reader tries them.
 * @example recordPaths("a.b") // [["a.b"], ["a", "b"]]
 */
export function recordPaths(name: string): string[][] {
  const paths: string[][] = [];
  const walk = (rest: string, prefix: readonly string[]): void => {
    if (paths.length >= MAX_PATHS) return;
    paths.push([...prefix, rest]);
    for (let dot = rest.indexOf("."); dot !== -1; dot = rest.indexOf(".", dot + 1))
      walk(rest.slice(dot + 1), [...prefix, rest.slice(0, dot)]);
  };
  walk(name, []);
  return paths;
}

/** A JSON Pointer (RFC 6901): any key can be named, dots, slashes and quotes included. */
export function jsonPointer(keys: readonly string[]): string {
  return keys.map((key) => `/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`).join("");
}

/** A column of a nested record: a value, or an object whose fields are columns again. */
export type RecordField = { name: string; column: SchemaColumn } | { name: string; fields: RecordField[] };

/**
 * The columns as the nested objects they are written in (`atr.domain_name` → a field `domain_name`
 * of an object `atr`), in the order they first appear. The service's fields are nested as it sends
 * them. A dotted path a transform writes (a `rename` target, an `add`ed field) sits inside its parent
 * object in the records that have one and under a literal dotted key in the others, so no single
 * declaration reads it or what is under it. A column that is also the parent of another cannot be
 * both a value and an object.
 */
export function nestedFields(
  columns: readonly SchemaColumn[],
  writtenByTransforms: readonly string[],
): RecordField[] {
  const root: RecordField[] = [];
  for (const column of columns) {
    const written = writtenByTransforms.find(
      (path) => path.includes(".") && (column.name === path || column.name.startsWith(`${path}.`)),
    );
    if (written !== undefined)
      throw new Error(
        `${JSON.stringify(column.name)} is written by a transform to ${JSON.stringify(written)}, inside an object in some records and under the literal key ${JSON.stringify(written)} in others; name it without a dot (rename), add flatten: { separator: _ }, or set column_names: snake_case on the sink`,
      );
    const keys = column.name.split(".");
    let level = root;
    for (const [depth, key] of keys.entries()) {
      const found = level.find((field) => field.name === key);
      const last = depth === keys.length - 1;
      if (found !== undefined && (last || !("fields" in found)))
        throw new Error(
          `${JSON.stringify(column.name)} is written inside ${JSON.stringify(keys.slice(0, depth + 1).join("."))}, which is a column of its own; drop one of them with a transform, or set column_names: snake_case on the sink`,
        );
      if (last) level.push({ name: key, column });
      else if (found !== undefined && "fields" in found) level = found.fields;
      else {
        const object: RecordField = { name: key, fields: [] };
        level.push(object);
        level = object.fields;
      }
    }
  }
  return root;
}
