// The pinned schema document: a sink's columns in order, written beside the output by the first
// successful run (or committed next to the pipeline), read back by every later run to compare.
import { z } from "zod";
import { EtlError } from "../errors.js";
import { COLUMN_TYPE_NAMES } from "./ddl/dialect-types.js";
import type { SchemaColumn } from "./output-schema.js";
import { hasControlCharacter } from "../core/control-characters.js";
import { showName } from "./show-name.js";

/** Where the run pins each sink's schema, relative to the sink's output root. */
export const PINNED_SCHEMA_PATH = "_mdq-export/schema.json";

const schemaColumnSchema = z.strictObject({
  name: z.string().min(1),
  type: z.enum(COLUMN_TYPE_NAMES),
  nullable: z.boolean(),
  source: z.string().nullable(),
  removed_at: z
    .string()
    .refine((text) => !Number.isNaN(Date.parse(text)), "expected an ISO 8601 time")
    .optional(),
});

export const pinnedSchemaSchema = z.strictObject({
  version: z.literal(1),
  columns: z.array(schemaColumnSchema).min(1),
});

export type PinnedSchema = z.infer<typeof pinnedSchemaSchema>;

/**
 * Parses a pinned schema document; `where` names the file in the message.
 * @example parsePinnedSchema(await readFile(path, "utf8"), path)
 */
export function parsePinnedSchema(text: string, where: string): PinnedSchema {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new EtlError("SCHEMA_UNREADABLE", `${where}: not JSON (${(error as Error).message})`, {
      cause: error,
    });
  }
  const parsed = pinnedSchemaSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = issue?.path.join(".") ?? "";
    throw new EtlError(
      "SCHEMA_UNREADABLE",
      `${where}: ${path === "" ? "" : `${path}: `}${issue?.message ?? "not a pinned schema"}`,
    );
  }
  const names = new Set<string>();
  for (const column of parsed.data.columns) {
    if (hasControlCharacter(column.name))
      throw new EtlError(
        "SCHEMA_UNREADABLE",
        `${where}: column ${showName(column.name)} holds a control character, which no table definition takes`,
      );
    if (names.has(column.name))
      throw new EtlError("SCHEMA_UNREADABLE", `${where}: column ${showName(column.name)} appears twice`);
    names.add(column.name);
  }
  return parsed.data;
}

/** One column per line, so a schema change is a one-line diff in review. */
export function formatPinnedSchema(columns: readonly SchemaColumn[]): string {
  const lines = columns.map((column) => {
    const { name, type, nullable, source, removed_at: removedAt } = column;
    return `    ${JSON.stringify({ name, type, nullable, source, ...(removedAt === undefined ? {} : { removed_at: removedAt }) })}`;
  });
  return `{\n  "version": 1,\n  "columns": [\n${lines.join(",\n")}\n  ]\n}\n`;
}
