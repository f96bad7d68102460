// Compares the schema a run would write with the pinned one and applies the sink's drift policy:
// a new field is added, ignored or refused; a removed field keeps its column (nulls); a type change
// is refused or written as text. The result is the schema to write, which becomes the new pin.
import { EtlError } from "../errors.js";
import type { ColumnType } from "../pipeline/contracts.js";
import type { SchemaColumn } from "./output-schema.js";

/** What a sink does when the service's fields change under its pinned schema. */
export interface DriftPolicy {
  new_fields: "add" | "ignore" | "fail";
  type_changes: "fail" | "string";
}

export type SchemaChange =
  | { change: "added"; column: SchemaColumn; action: "added" | "ignored" }
  | { change: "removed"; column: SchemaColumn }
  | { change: "retyped"; column: SchemaColumn; from: ColumnType; to: ColumnType };

export interface DriftOutcome {
  /** The columns every file of the sink now has, in order: the pin from here on. */
  columns: SchemaColumn[];
  changes: SchemaChange[];
  /** Whether `columns` differs from the pin (a new column, a column now text). */
  pinChanged: boolean;
}

/** The pinned schema and the service disagree in a way the policy refuses. */
export class SchemaDriftError extends EtlError {
  readonly problems: readonly string[];

  constructor(where: string, problems: readonly string[]) {
    super(
      "SCHEMA_DRIFT",
      `${where}: the output schema drifted from the pinned schema: ${problems.join("; ")}`,
    );
    this.problems = problems;
  }
}

function fieldOf(column: SchemaColumn): string {
  return column.source === null || column.source === column.name
    ? `"${column.name}"`
    : `"${column.source}" (column ${column.name})`;
}

/**
 * @example
 * const { columns, changes } = reconcileSchema(pin.columns, current, policy, "sink 1 (./out/jobs)");
 */
export function reconcileSchema(
  pinned: readonly SchemaColumn[],
  current: readonly SchemaColumn[],
  policy: DriftPolicy,
  where: string,
): DriftOutcome {
  const currentByName = new Map(current.map((column) => [column.name, column]));
  const pinnedNames = new Set(pinned.map((column) => column.name));
  const changes: SchemaChange[] = [];
  const refused: string[] = [];
  const columns: SchemaColumn[] = [];
  let pinChanged = false;
  for (const column of pinned) {
    const now = currentByName.get(column.name);
    if (now === undefined) {
      changes.push({ change: "removed", column });
      columns.push(column);
    } else if (now.type !== column.type && column.type !== "string") {
      if (policy.type_changes === "fail")
        refused.push(
          `field ${fieldOf(now)} changed type from ${column.type} (pinned) to ${now.type}; schema.type_changes: string writes it as text`,
        );
      changes.push({ change: "retyped", column, from: column.type, to: now.type });
      columns.push({ ...column, type: "string", nullable: true });
      pinChanged = true;
    } else {
      // A pinned text column takes any type as text, so a field once written as text stays text.
      if (now.type !== column.type)
        changes.push({ change: "retyped", column, from: column.type, to: now.type });
      columns.push(column);
    }
  }
  for (const column of current) {
    if (pinnedNames.has(column.name)) continue;
    if (policy.new_fields === "fail")
      refused.push(
        `field ${fieldOf(column)} (${column.type}) is new; schema.new_fields: add or ignore accepts it`,
      );
    const action = policy.new_fields === "add" ? "added" : "ignored";
    changes.push({ change: "added", column, action });
    if (action === "added") {
      columns.push({ ...column, nullable: true });
      pinChanged = true;
    }
  }
  if (refused.length > 0) throw new SchemaDriftError(where, refused);
  return { columns, changes, pinChanged };
}

/** One line per change, for the run summary, `plan` and the log. */
export function describeChange(change: SchemaChange): string {
  switch (change.change) {
    case "added":
      return change.action === "added"
        ? `new field ${fieldOf(change.column)} added as nullable ${change.column.type} column`
        : `new field ${fieldOf(change.column)} ignored (schema.new_fields: ignore)`;
    case "removed":
      return `field ${fieldOf(change.column)} no longer in the service's mappings: column kept, written as nulls`;
    case "retyped":
      return `field ${fieldOf(change.column)} changed type from ${change.from} to ${change.to}: written as text`;
  }
}
