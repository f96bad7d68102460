// Column bookkeeping shared by transforms' `columns()`: which columns a field path names, and the
// problem reported when it names none.
import type { Column } from "../core/contracts.js";
import { didYouMean } from "../core/close-matches.js";

/** Columns named by `path`: the column itself, or every column under it (`job` → `job.id`, `job.name`). */
export function columnsAt(columns: readonly Column[], path: string): Column[] {
  return columns.filter((column) => isUnder(column.name, path));
}

/** Whether `name` is `path` or lies under it. */
export function isUnder(name: string, path: string): boolean {
  return name === path || name.startsWith(`${path}.`);
}

/** The message for a field the stage refers to but will not receive. */
export function missingFieldMessage(path: string, columns: readonly Column[]): string {
  const names = columns.map((column) => column.name);
  return `field "${path}" is not among the columns this stage receives${didYouMean(path, names)}`;
}

/** A problem for each listed field the stage will not receive, at its place in `fields`. */
export function missingFields(fields: readonly string[], columns: readonly Column[]) {
  return fields.flatMap((field, index) =>
    columnsAt(columns, field).length === 0
      ? [{ path: `fields.${index}`, message: missingFieldMessage(field, columns) }]
      : [],
  );
}
