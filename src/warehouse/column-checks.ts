// The checks a sink's columns pass at run time, on the service's live mappings, before anything is
// written or pinned: field names within bounds (checked before naming, so no name costs more than
// its length), no two columns with one name after naming, and no control character in a name.
import { EtlError } from "../errors.js";
import type { Column } from "../core/contracts.js";
import { collisionMessage, columnCollisions } from "./column-names.js";
import type { ColumnNamingRules } from "./column-names.js";
import type { SchemaColumn } from "./output-schema.js";
import { hasControlCharacter } from "../core/control-characters.js";
import { showName } from "./show-name.js";
import { DEFAULT_MAX_COLUMNS, DEFAULT_MAX_NAME_CHARS } from "../sinks/warehouse-options.js";
import type { SchemaPolicyConfig } from "../sinks/warehouse-options.js";

/** The bounds of a sink's `schema:` on the names and number of columns; the defaults for what it leaves out. */
type ColumnBounds = Partial<Pick<SchemaPolicyConfig, "max_columns" | "max_name_chars">>;

/**
 * Field names longer than `max_name_chars`, and more columns than `max_columns`: COLUMNS_UNBOUNDED,
 * naming the field (cut) or the count, and the setting.
 */
export function checkColumnBounds(columns: readonly Column[], bounds: ColumnBounds, where: string): void {
  const maxChars = bounds.max_name_chars ?? DEFAULT_MAX_NAME_CHARS;
  const long = columns.find((column) => column.name.length > maxChars);
  if (long !== undefined)
    throw new EtlError(
      "COLUMNS_UNBOUNDED",
      `${where}: the field ${showName(long.name)} has a name of ${long.name.length} characters, more than schema.max_name_chars (${maxChars}); leave it out with source.fields, select or drop, or raise schema.max_name_chars`,
    );
  checkColumnCount(columns.length, bounds, where);
}

/** More columns than `max_columns` (a pin's kept columns included). */
export function checkColumnCount(count: number, bounds: ColumnBounds, where: string): void {
  const maxColumns = bounds.max_columns ?? DEFAULT_MAX_COLUMNS;
  if (count > maxColumns)
    throw new EtlError(
      "COLUMNS_UNBOUNDED",
      `${where}: ${count} columns, more than schema.max_columns (${maxColumns}); the service maps more fields than the sink takes: pick the fields with source.fields or select, or raise schema.max_columns`,
    );
}

/** Two columns with one name after the sink's naming: COLUMN_COLLISION naming both fields and the fixes. */
export function checkColumnCollisions(
  columns: readonly Column[],
  rules: ColumnNamingRules,
  where: string,
): void {
  const collisions = columnCollisions(columns, rules);
  if (collisions.length === 0) return;
  const shown = collisions.slice(0, 5).map(collisionMessage);
  const more = collisions.length > shown.length ? ` (and ${collisions.length - shown.length} more)` : "";
  throw new EtlError(
    "COLUMN_COLLISION",
    `${where}: the service's fields give two columns one name: ${shown.join("; ")}${more}; nothing was written`,
  );
}

/** A column name with a control character (NUL included), which no DDL or terminal takes as it is. */
export function checkColumnNamesPrintable(columns: readonly SchemaColumn[], where: string): void {
  const unsafe = columns.find((column) => hasControlCharacter(column.name));
  if (unsafe === undefined) return;
  throw new EtlError(
    "COLUMN_NAME_UNSAFE",
    `${where}: the column name ${showName(unsafe.name)} holds a control character; rename the field with a transform, give it a name with column_name_overrides, or set column_names: snake_case`,
  );
}
