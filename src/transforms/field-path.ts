// Reading and writing a field named by a dotted path, on nested rows (before `flatten`) and flat rows
// (after it) alike: a literal key `job.id` wins, otherwise the path walks nested objects.
import type { Row } from "../core/contracts.js";

type Obj = Record<string, unknown>;

export function isPlainObject(value: unknown): value is Obj {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * Sets an own property, whatever the key: `out[key] = value` with a field named `__proto__` (which a
 * record from the service may carry) would replace the object's prototype instead.
 */
export function setOwnField(target: Obj, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
}

/** A row's own field; a name such as `constructor` that the row lacks is absent, not a built-in. */
export function ownField(row: Readonly<Obj>, key: string): unknown {
  return Object.hasOwn(row, key) ? row[key] : undefined;
}

type Found = { found: true; value: unknown } | { found: false };

const NOT_FOUND: Found = { found: false };

/**
 * Finds `path` in `row`: the literal key first, then every split at a dot whose head is a nested object.
 * @example readField({ job: { id: "7" } }, "job.id") // { found: true, value: "7" }
 */
export function readField(row: Readonly<Obj>, path: string): Found {
  if (Object.hasOwn(row, path)) return { found: true, value: row[path] };
  for (let dot = path.indexOf("."); dot !== -1; dot = path.indexOf(".", dot + 1)) {
    const head = ownField(row, path.slice(0, dot));
    if (isPlainObject(head)) {
      const inner = readField(head, path.slice(dot + 1));
      if (inner.found) return inner;
    }
  }
  return NOT_FOUND;
}

/**
 * A copy of `row` without `path`; the same row when the field is absent. Only the objects on the
 * path are copied, so untouched subtrees are shared, not cloned; parents left empty are removed.
 */
export function removeField(row: Row, path: string): Row {
  if (Object.hasOwn(row, path)) return without(row, path);
  for (let dot = path.indexOf("."); dot !== -1; dot = path.indexOf(".", dot + 1)) {
    const key = path.slice(0, dot);
    const head = ownField(row, key);
    if (isPlainObject(head)) {
      const inner = removeField(head, path.slice(dot + 1));
      if (inner === head) continue;
      // A parent emptied by the removal goes too, so no phantom `{}` column appears after flatten.
      return Object.keys(inner).length > 0 ? { ...row, [key]: inner } : without(row, key);
    }
  }
  return row;
}

function without(row: Row, key: string): Row {
  const copy: Obj = { ...row };
  delete copy[key];
  return copy;
}

/**
 * A copy of `row` with `path` set to `value`: an existing field (literal or nested) is replaced;
 * a new field goes into the deepest existing parent object, else under the literal key, so a
 * later `flatten` names it the same way either way.
 */
export function writeField(row: Row, path: string, value: unknown): Row {
  if (Object.hasOwn(row, path)) return { ...row, [path]: value };
  for (let dot = path.indexOf("."); dot !== -1; dot = path.indexOf(".", dot + 1)) {
    const key = path.slice(0, dot);
    const head = ownField(row, key);
    if (isPlainObject(head)) return { ...row, [key]: writeField(head, path.slice(dot + 1), value) };
  }
  return { ...row, [path]: value };
}
