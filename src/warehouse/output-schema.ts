// The schema a sink writes: each column's name (after `column_names`), type, nullability and the
// source field it comes from. `mdq-export schema` prints it; the first run pins it (pinned-schema.ts).
import type { Column, ColumnType } from "../core/contracts.js";
import { columnName, HIT_IDENTITY } from "./column-names.js";
import type { ColumnNamingRules } from "./column-names.js";

/** One column of a sink's output, as pinned and compared. */
export interface SchemaColumn {
  name: string;
  type: ColumnType;
  nullable: boolean;
  /** The service's field the values come from; null for a column a transform adds. */
  source: string | null;
  /** When the run that first missed the field in the service's mappings started; absent while mapped. */
  removed_at?: string;
}

/** A column that remembers its source field while transforms rename it. */
export interface SourcedColumn extends Column {
  source?: string | null;
}

/**
 * Tags each column a source yields with its own name as source field. The transforms' `columns()`
 * copy columns with a spread, so the tag follows a rename or a flatten; a column they create has none.
 */
export function withSourceFields(columns: readonly Column[]): SourcedColumn[] {
  return columns.map((column) => ({ ...column, source: column.name }));
}

/** The output schema of a sink from the columns after the transforms. */
export function outputSchema(columns: readonly SourcedColumn[], rules: ColumnNamingRules): SchemaColumn[] {
  return columns.map((column) => {
    const source = column.source ?? null;
    return {
      name: columnName(column.name, rules),
      type: column.type,
      // Every hit has an id and an index; any other field may be missing from a record.
      nullable: source === null || !HIT_IDENTITY.has(source),
      source,
    };
  });
}
