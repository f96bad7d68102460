// The sink options of the warehouse contract: how columns are named and what a run does when the
// service's fields drift from the pinned schema. Part of every sink's YAML schema.
import { z } from "zod";

export const columnNamesSchema = z
  .enum(["as_is", "snake_case"])
  .default("as_is")
  .describe(
    "as_is keeps the names rows carry (job.id, @timestamp); snake_case writes [a-z_][a-z0-9_]* (job_id, timestamp), which Athena, Glue and BigQuery require. Default as_is, so upgrading never renames the columns of an existing table.",
  );

export const schemaPolicySchema = z
  .strictObject({
    new_fields: z
      .enum(["add", "ignore", "fail"])
      .default("add")
      .describe(
        "A field the pinned schema lacks: add it as a new nullable column (reported), ignore it (not written), or fail before anything is written.",
      ),
    type_changes: z
      .enum(["fail", "string"])
      .default("fail")
      .describe(
        "A field whose type differs from the pinned one: fail naming the field and both types, or write it as text from now on (reported).",
      ),
    pinned: z
      .string()
      .min(1)
      .optional()
      .describe(
        "A schema file committed next to the pipeline (path relative to the pipeline file), so a schema change is a reviewed diff; without it the first successful run pins the schema beside the output (_mdq-export/schema.json).",
      ),
  })
  .describe(
    "The pinned output schema and the drift policy. A removed field always keeps its column, written as nulls.",
  );

export type SchemaPolicyConfig = z.infer<typeof schemaPolicySchema>;
