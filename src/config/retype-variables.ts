// Reading a variable's text as a number or boolean where the schema wants one (`page_size: ${SIZE}`).
import { pathKey } from "./interpolate.js";
import { valueAt } from "./yaml-source.js";

type Obj = Record<string | number, unknown>;

/**
 * An unquoted `${VAR}` standing alone reads like a YAML number or boolean (`page_size: ${SIZE}`).
 * Where the schema wanted one and got the variable's text, convert it once and validate again.
 */
export function retype(
  data: unknown,
  issues: readonly { code: string; path: PropertyKey[]; expected?: string }[],
  retypable: Set<string>,
): boolean {
  let changed = false;
  for (const issue of issues) {
    if (issue.code !== "invalid_type" || !["number", "int", "boolean"].includes(issue.expected ?? ""))
      continue;
    const path = issue.path.filter((segment): segment is string | number => typeof segment !== "symbol");
    if (!retypable.has(pathKey(path))) continue;
    const parent = valueAt(data, path.slice(0, -1));
    const key = path.at(-1);
    if (key === undefined || typeof parent !== "object" || parent === null) continue;
    const text = (parent as Obj)[key];
    if (typeof text !== "string") continue;
    const value =
      issue.expected === "boolean"
        ? ({ true: true, false: false } as Obj)[text]
        : /^-?\d+(\.\d+)?$/.test(text)
          ? Number(text)
          : undefined;
    if (value === undefined) continue;
    (parent as Obj)[key] = value;
    changed = true;
  }
  return changed;
}
