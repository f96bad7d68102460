// Reports record fields that no output column holds. A columnar sink writes only its columns, so such
// a field would vanish from the files without a word; the run names it instead (once per slice).
import type { Batch, Column, Row, SliceContext, Transform } from "./contracts.js";

/** The dotted names of a row's fields that are not a column nor lead to one (`atr` for `atr.domain_name`). */
export function unknownFields(row: Row, names: ReadonlySet<string>, prefixes: ReadonlySet<string>): string[] {
  const found: string[] = [];
  const visit = (value: Readonly<Record<string, unknown>>, at: string): void => {
    for (const [key, inner] of Object.entries(value)) {
      const name = at + key;
      if (names.has(name)) continue;
      const nested = inner !== null && typeof inner === "object" && !Array.isArray(inner);
      if (nested && prefixes.has(name)) visit(inner as Readonly<Record<string, unknown>>, `${name}.`);
      else found.push(name);
    }
  };
  visit(row, "");
  return found;
}

/**
 * A pass-through stage that warns, once per slice, with the names of fields outside `columns`.
 * @example stream = reportUnknownFields(columns)(stream, ctx);
 */
export function reportUnknownFields(columns: readonly Column[]): Transform {
  const names = new Set(columns.map((column) => column.name));
  // Every proper prefix of a dotted column name: `atr` and `atr.infra_data` for `atr.infra_data.region`.
  const prefixes = new Set<string>();
  for (const column of columns) {
    const parts = column.name.split(".");
    for (let end = 1; end < parts.length; end++) prefixes.add(parts.slice(0, end).join("."));
  }
  return async function* (input: AsyncIterable<Batch>, ctx: SliceContext): AsyncGenerator<Batch> {
    const reported = new Set<string>();
    for await (const batch of input) {
      const fresh = new Set<string>();
      for (const row of batch)
        for (const name of unknownFields(row, names, prefixes)) if (!reported.has(name)) fresh.add(name);
      if (fresh.size > 0) {
        for (const name of fresh) reported.add(name);
        ctx.log.warn(
          { fields: [...fresh].sort() },
          "Records carry fields that no output column holds; columnar files leave them out.",
        );
      }
      yield batch;
    }
  };
}
