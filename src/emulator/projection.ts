// The `fields` projection: a `_source` restricted to the requested dotted paths, nesting kept.
import type { Source } from "./records.js";

export type Projection = (source: Source) => Source;

export function compileProjection(fields: readonly string[] | undefined): Projection | undefined {
  if (!fields || fields.length === 0) return undefined;
  const paths = fields.map((field) => field.replace(/\.(keyword|text)$/, "").split("."));
  return (source) => {
    const out: Source = {};
    for (const path of paths) {
      let from: unknown = source;
      for (const key of path)
        from = from !== null && typeof from === "object" ? (from as Source)[key] : undefined;
      if (from === undefined) continue;
      let into = out;
      for (let k = 0; k < path.length - 1; k++) {
        const key = path[k] as string;
        const next = into[key];
        into = (next !== null && typeof next === "object" ? next : (into[key] = {})) as Source;
      }
      into[path[path.length - 1] as string] = from;
    }
    return out;
  };
}
