// Reports record fields that no output column holds. A columnar sink writes only its columns, so such
// a field would vanish from the files without a word; the run names it instead (once per slice).
import type { RecordBatch, Column, Row, SliceContext, Transform } from "../../core/contracts.js";
import { EtlError } from "../../errors.js";
import { isJsonObject } from "../../core/json-object.js";

/**
 * The column names as a tree of their dotted parts (`atr` → `domain_name`), so a record is walked
 * with one lookup per key and no string built for a field that has a column: this runs on every
 * record of a Parquet pipeline, and the walk with a dotted name per key was 9% of its profile.
 * Children are a prototype-less object rather than a Map: a record's keys come from `JSON.parse` and
 * repeat from record to record, and reading them as properties made the walk of 50,000 generated jobs
 * 10–18% cheaper than `Map.get` did. With no prototype, `__proto__` or `constructor` is a name like any
 * other.
 */
interface FieldNode {
  /** A column holds this field whole (nested or not). */
  column: boolean;
  children: Record<string, FieldNode | undefined>;
}

function fieldNode(): FieldNode {
  return { column: false, children: Object.create(null) as Record<string, FieldNode | undefined> };
}

/** The field tree of a set of column names, which a column reader follows in a nested row. */
export function fieldTree(names: Iterable<string>): FieldNode {
  const root = fieldNode();
  for (const name of names) {
    let node = root;
    for (const part of name.split(".")) {
      let child = node.children[part];
      if (child === undefined) {
        child = fieldNode();
        node.children[part] = child;
      }
      node = child;
    }
    node.column = true;
  }
  return root;
}

/** The dotted names of a row's fields that are not a column nor lead to one (`atr` for `atr.domain_name`). */
export function unknownFields(
  row: Row,
  names: ReadonlySet<string>,
  tree: FieldNode = fieldTree(names),
): string[] {
  const found: string[] = [];
  const visit = (value: Readonly<Record<string, unknown>>, node: FieldNode, at: string): void => {
    for (const key in value) {
      if (!Object.hasOwn(value, key)) continue;
      const child = node.children[key];
      if (child?.column === true) continue;
      const inner = value[key];
      if (child !== undefined && isJsonObject(inner)) {
        visit(inner, child, `${at}${key}.`);
        continue;
      }
      // A flattened row keys `atr.domain_name` as one string at its top, where the column reads it.
      if (at === "" && names.has(key)) continue;
      found.push(at + key);
    }
  };
  visit(row, tree, "");
  return found;
}

/** Unknown field names one warning lists at most; it counts the rest. */
const FIELDS_SHOWN = 50;

/**
 * A pass-through stage that warns, once per slice, with the names of fields outside `columns`.
 * @example stream = reportUnknownFields(columns)(stream, ctx);
 */
export function reportUnknownFields(columns: readonly Column[]): Transform {
  const names = new Set(columns.map((column) => column.name));
  const tree = fieldTree(names);
  return async function* (input: AsyncIterable<RecordBatch>, ctx: SliceContext): AsyncGenerator<RecordBatch> {
    const reported = new Set<string>();
    for await (const batch of input) {
      const fresh = new Set<string>();
      const add = (found: readonly string[]): void => {
        for (const name of found) if (!reported.has(name)) fresh.add(name);
      };
      if (batch.kind === "rows") for (const row of batch.rows) add(unknownFields(row, names, tree));
      // Records taken from the hits' bytes have no fields to walk: the reader named the unknown ones.
      else if (batch.kind === "columns")
        for (const { chunk, at } of batch.records) add(chunk.unknown[at] ?? []);
      // Lines go only to formats of whole records, for which no field is unknown.
      else throw new EtlError("INTERNAL", "the unknown-field report was handed JSON lines");
      if (fresh.size > 0) {
        for (const name of fresh) reported.add(name);
        // The names are the records' own: a record with 100,000 unknown keys gives one short line.
        const fields = [...fresh].sort();
        ctx.log.warn(
          {
            fields: fields.slice(0, FIELDS_SHOWN),
            ...(fields.length > FIELDS_SHOWN ? { more: fields.length - FIELDS_SHOWN } : {}),
          },
          "Records carry fields that no output column holds; columnar files leave them out.",
        );
      }
      yield batch;
    }
  };
}
