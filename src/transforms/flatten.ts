// `flatten`: turns nested objects into top-level columns joined by a separator (`job.id` or `job_id`).
// Arrays are values, not structure, so they stay as they are.
import { z } from "zod";
import type { Row, TransformComponent } from "../core/contracts.js";
import { isPlainObject, setOwnField } from "./field-path.js";
import { mapRows } from "./map-rows.js";

export const flattenSchema = z
  .strictObject({
    separator: z
      .string()
      .min(1)
      .max(3)
      .default(".")
      .describe(
        'Joins the keys of nested objects into a column name. Default ".": job.id; "_" gives job_id.',
      ),
  })
  .describe("Flattens nested objects into columns.");

function flattenInto(out: Record<string, unknown>, prefix: string, value: Row, separator: string): void {
  for (const [key, inner] of Object.entries(value)) {
    // A key holding dots (written by an earlier flatten or by rename) is the path its dots divide, as a
    // column's name is: a second flatten with another separator renames it as it renames the column.
    const part = separator === "." || !key.includes(".") ? key : key.split(".").join(separator);
    const name = prefix === "" ? part : `${prefix}${separator}${part}`;
    if (isPlainObject(inner) && Object.keys(inner).length > 0) flattenInto(out, name, inner, separator);
    else setOwnField(out, name, inner);
  }
}

export const flattenTransform: TransformComponent<typeof flattenSchema> = {
  type: "flatten",
  summary: "Flattens nested objects into dotted or underscored columns.",
  schema: flattenSchema,
  create: (config) =>
    mapRows((row) => {
      const out: Record<string, unknown> = {};
      flattenInto(out, "", row, config.separator);
      return out;
    }),
  columns: (config, input) => ({
    // Column names are already dotted paths; only the separator changes.
    columns: input.map((column) => ({ ...column, name: column.name.split(".").join(config.separator) })),
    problems: [],
  }),
};
