// The sink options of the warehouse contract: how columns are named and what a run does when the
// service's fields drift from the pinned schema. Part of every sink's YAML schema, so they live with
// the sink's section; warehouse/ reads them to name columns and resolve the pinned schema.
import { z } from "zod";
import { hasControlCharacter } from "../core/control-characters.js";
import { wholeNumber } from "../core/whole-number.js";

/** How a sink names its columns: as the rows carry them, or made safe for every warehouse. */
export type ColumnNaming = "as_is" | "snake_case";

/** What every warehouse we document accepts unquoted. */
export const SAFE_COLUMN_NAME = /^[a-z_][a-z0-9_]*$/;

/** Column names and field names a sink writes by default at most: the bounds on what the service sends. */
export const DEFAULT_MAX_COLUMNS = 2000;
export const DEFAULT_MAX_NAME_CHARS = 1024;
export const DEFAULT_KEEP_REMOVED_DAYS = 30;

export const columnNamesSchema = z
  .enum(["as_is", "snake_case"])
  .default("as_is")
  .describe(
    "as_is keeps the names rows carry (job.id, @timestamp); snake_case writes [a-z_][a-z0-9_]* (job_id, timestamp), which Athena, Glue and BigQuery require; where that would give two of a kind's own columns one name the kind names one of them (logs: the application's timestamp is app_timestamp when @timestamp, which is timestamp, is a column too). Default as_is, so upgrading never renames the columns of an existing table.",
  );

// No control character (NUL included): a column name ends up in DDL, terminals and logs.
const overrideNameSchema = z
  .string()
  .min(1)
  .max(DEFAULT_MAX_NAME_CHARS)
  .refine((name) => !hasControlCharacter(name), "a column name has no control character");

export const columnNameOverridesSchema = z
  .record(z.string().min(1), overrideNameSchema)
  .optional()
  .describe(
    'Column names given one by one, after the transforms: { "@_id": at_id } writes the field @_id as column at_id instead of the name column_names gives it. The way to keep two fields apart that column_names would give one name. Under snake_case each name must be [a-z_][a-z0-9_]*.',
  );

/** Overrides under snake_case must be names every warehouse accepts, as the naming's own are. */
export function overrideProblems(sink: {
  column_names: ColumnNaming;
  column_name_overrides?: Readonly<Record<string, string>> | undefined;
}): { field: string; message: string }[] {
  if (sink.column_names !== "snake_case") return [];
  return Object.entries(sink.column_name_overrides ?? {})
    .filter(([, name]) => !SAFE_COLUMN_NAME.test(name))
    .map(([field, name]) => ({
      field,
      message: `${JSON.stringify(name)} is not a snake_case column name ([a-z_][a-z0-9_]*), which column_names: snake_case promises`,
    }));
}

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
    keep_removed_days: wholeNumber(0)
      .default(DEFAULT_KEEP_REMOVED_DAYS)
      .describe(
        "How long the column of a field gone from the service's mappings is kept (written as nulls), in days from the run that first missed it; then the column is dropped from the files and the pin (reported). 0 drops it at once. A field that comes back in time keeps its column.",
      ),
    max_columns: wholeNumber(1)
      .default(DEFAULT_MAX_COLUMNS)
      .describe(
        "Most columns a sink writes, kept removed columns included: more fails the run before anything is written (COLUMNS_UNBOUNDED), naming this setting. Narrow the fields with source.fields, select or drop, or raise it.",
      ),
    max_name_chars: wholeNumber(1)
      .default(DEFAULT_MAX_NAME_CHARS)
      .describe(
        "Longest field name (in characters, after the transforms) a sink writes a column for: a longer one fails the run before anything is written (COLUMNS_UNBOUNDED), naming the field and this setting.",
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
    "The pinned output schema, the drift policy and the bounds on the service's fields. A removed field keeps its column, written as nulls, for keep_removed_days.",
  );

export type SchemaPolicyConfig = z.infer<typeof schemaPolicySchema>;
