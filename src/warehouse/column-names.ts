// Warehouse-safe column names: Athena/Glue and BigQuery accept `[a-z_][a-z0-9_]*` and nothing else,
// so a sink with `column_names: snake_case` writes `job_execution_time_elapsed` for
// `job.execution_time.elapsed` and `timestamp` for `@timestamp`.
import type { Column } from "../pipeline/contracts.js";

/** How a sink names its columns: as the rows carry them, or made safe for every warehouse. */
export type ColumnNaming = "as_is" | "snake_case";

export const COLUMN_NAMINGS: readonly ColumnNaming[] = ["as_is", "snake_case"];

/** What every warehouse we document accepts unquoted. */
export const SAFE_COLUMN_NAME = /^[a-z_][a-z0-9_]*$/;

/**
 * `@timestamp` → `timestamp`, `job.execution_time.elapsed` → `job_execution_time_elapsed`,
 * `logLevel` → `log_level`, `HTTPStatus` → `http_status`, `2xx` → `_2xx`; `_id` stays `_id`.
 * Every run of other characters becomes one `_`; a leading `@` is dropped (the search engine's
 * marker, not part of the name).
 */
export function snakeCaseName(name: string): string {
  const words = name
    .replace(/^@+/, "")
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2")
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, "_");
  const trimmed = words.replace(/_+$/, "");
  const safe = trimmed === "" ? "_" : trimmed;
  return /^[0-9]/.test(safe) ? `_${safe}` : safe;
}

/** The name a column gets under a naming. */
export function columnName(name: string, naming: ColumnNaming): string {
  return naming === "snake_case" ? snakeCaseName(name) : name;
}

/** Two columns that end up with the same name. */
export interface ColumnCollision {
  name: string;
  columns: readonly [string, string];
}

/** Columns whose new names clash; an empty list when the naming is one to one. */
export function columnCollisions(columns: readonly Column[], naming: ColumnNaming): ColumnCollision[] {
  const seen = new Map<string, string>();
  const collisions: ColumnCollision[] = [];
  for (const column of columns) {
    const name = columnName(column.name, naming);
    const earlier = seen.get(name);
    if (earlier === undefined) seen.set(name, column.name);
    else collisions.push({ name, columns: [earlier, column.name] });
  }
  return collisions;
}

/** The message a collision gives, naming both fields and the way out. */
export function collisionMessage(collision: ColumnCollision): string {
  const [first, second] = collision.columns;
  return `column_names: snake_case turns both "${first}" and "${second}" into "${collision.name}"; drop or rename one of them with a transform, or keep column_names: as_is`;
}
