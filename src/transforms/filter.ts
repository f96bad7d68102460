// `filter`: keeps the rows for which a condition holds; the others are dropped from the batch.
import type { TransformComponent } from "../core/contracts.js";
import { columnsAt, missingFieldMessage } from "./columns.js";
import { compileCondition, conditionFields, conditionSchema } from "./condition.js";
import { mapRows } from "./map-rows.js";

export const filterSchema = conditionSchema;

export const filterTransform: TransformComponent<typeof filterSchema> = {
  type: "filter",
  summary: "Keeps rows matching a condition (equals, in, exists, gt, matches, ...; all / any / not).",
  schema: filterSchema,
  create: (config) => {
    const keep = compileCondition(config);
    return mapRows((row) => (keep(row) ? row : undefined));
  },
  columns: (config, input) => ({
    columns: input,
    problems: conditionFields(config)
      .filter(({ field }) => columnsAt(input, field).length === 0)
      .map(({ field, path }) => ({ path, message: missingFieldMessage(field, input) })),
  }),
};
