// `rename`: moves fields to new names, `{ from: to }`; renaming a path moves its whole subtree.
import { z } from "zod";
import type { Column, TransformComponent } from "../core/contracts.js";
import { columnsAt, isUnder, missingFieldMessage } from "./columns.js";
import { fieldPathSchema } from "./field-schema.js";
import { readField, removeField, writeField } from "./field-path.js";
import { mapRows } from "./map-rows.js";

export const renameSchema = z
  .record(fieldPathSchema, fieldPathSchema.describe("The new name."))
  .refine((map) => Object.keys(map).length > 0, { message: "names no field to rename" })
  .describe("Renames fields: each key is a current name (dotted path), each value the new name.");

export const renameTransform: TransformComponent<typeof renameSchema> = {
  type: "rename",
  summary: "Renames fields ({ from: to }).",
  schema: renameSchema,
  create: (config) => {
    const pairs = Object.entries(config);
    return mapRows((row) => {
      let out = row;
      for (const [from, to] of pairs) {
        const found = readField(out, from);
        if (found.found) out = writeField(removeField(out, from), to, found.value);
      }
      return out;
    });
  },
  columns: (config, input) => {
    let columns: readonly Column[] = input;
    const problems: { path: string; message: string; overwrites?: boolean }[] = [];
    for (const [from, to] of Object.entries(config)) {
      if (columnsAt(columns, from).length === 0) {
        problems.push({ path: from, message: missingFieldMessage(from, columns) });
        continue;
      }
      const clash = columns.find((column) => isUnder(column.name, to) && !isUnder(column.name, from));
      if (clash !== undefined) {
        problems.push({
          path: from,
          message: `renaming "${from}" to "${to}" would overwrite the existing field "${clash.name}"; drop or rename it first`,
          overwrites: true,
        });
      }
      columns = columns.map((column) =>
        isUnder(column.name, from) ? { ...column, name: to + column.name.slice(from.length) } : column,
      );
    }
    return { columns, problems };
  },
};
