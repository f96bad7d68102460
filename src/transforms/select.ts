// `select`: keeps only the listed fields (a path keeps its whole subtree), in the order listed.
import { z } from "zod";
import type { Row, TransformComponent } from "../core/contracts.js";
import { columnsAt, missingFields } from "./columns.js";
import { fieldListSchema } from "./field-schema.js";
import { isPlainObject, ownField, readField, setOwnField } from "./field-path.js";
import { mapRows } from "./map-rows.js";

export const selectSchema = z
  .strictObject({
    fields: fieldListSchema.describe("Fields to keep; every other field is dropped. Required."),
  })
  .describe("Keeps only the listed fields; nested records keep their nesting.");

/** Copies `path` from `source` into `target`, rebuilding the nesting it was found under. */
function pick(
  target: Record<string, unknown>,
  source: Readonly<Record<string, unknown>>,
  path: string,
): void {
  if (Object.hasOwn(source, path)) {
    setOwnField(target, path, source[path]);
    return;
  }
  for (let dot = path.indexOf("."); dot !== -1; dot = path.indexOf(".", dot + 1)) {
    const key = path.slice(0, dot);
    const head = ownField(source, key);
    const rest = path.slice(dot + 1);
    if (isPlainObject(head) && readField(head, rest).found) {
      const existing = ownField(target, key);
      const inner: Record<string, unknown> = isPlainObject(existing) ? existing : {};
      setOwnField(target, key, inner);
      pick(inner, head, rest);
      return;
    }
  }
}

export const selectTransform: TransformComponent<typeof selectSchema> = {
  type: "select",
  summary: "Keeps only the listed fields.",
  schema: selectSchema,
  create: (config) =>
    mapRows((row): Row => {
      const out: Record<string, unknown> = {};
      for (const field of config.fields) pick(out, row, field);
      return out;
    }),
  columns: (config, input) => {
    // In the order listed, each name once however many listed paths reach it.
    const seen = new Set<string>();
    const columns = config.fields
      .flatMap((field) => columnsAt(input, field))
      .filter((column) => !seen.has(column.name) && seen.add(column.name));
    return { columns, problems: missingFields(config.fields, input) };
  },
};
