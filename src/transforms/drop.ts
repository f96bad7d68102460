// `drop`: removes the listed fields (a path removes its whole subtree); the rest pass unchanged.
import { z } from "zod";
import type { TransformComponent } from "../core/contracts.js";
import { isUnder, missingFields } from "./columns.js";
import { fieldListSchema } from "./field-schema.js";
import { removeField } from "./field-path.js";
import { mapRows } from "./map-rows.js";

export const dropSchema = z
  .strictObject({
    fields: fieldListSchema.describe("Fields to remove. Required."),
  })
  .describe("Removes the listed fields.");

export const dropTransform: TransformComponent<typeof dropSchema> = {
  type: "drop",
  summary: "Removes the listed fields.",
  schema: dropSchema,
  create: (config) =>
    mapRows((row) => {
      let out = row;
      for (const field of config.fields) out = removeField(out, field);
      return out;
    }),
  columns: (config, input) => ({
    columns: input.filter((column) => !config.fields.some((field) => isUnder(column.name, field))),
    problems: missingFields(config.fields, input),
  }),
};
