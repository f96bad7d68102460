// Compares the schema a run would write with the pinned one and applies the sink's drift policy:
// a new field is added, ignored or refused; a removed field keeps its column (nulls) for
// `keep_removed_days`, then its column is dropped; a type change is refused or written as text. The
// result is the schema to write, which becomes the new pin.
import { EtlError } from "../errors.js";
import type { Logger } from "../logger.js";
import type { ColumnType } from "../core/contracts.js";
import type { SchemaColumn } from "./output-schema.js";
import { escapedName, showName } from "./show-name.js";
import { DEFAULT_KEEP_REMOVED_DAYS } from "../sinks/warehouse-options.js";
import type { SchemaPolicyConfig } from "../sinks/warehouse-options.js";

/** What a sink does when the service's fields change under its pinned schema; the defaults for what it leaves out. */
export type DriftPolicy = Pick<SchemaPolicyConfig, "new_fields" | "type_changes"> &
  Partial<SchemaPolicyConfig>;

export type SchemaChange =
  | { change: "added"; column: SchemaColumn; action: "added" | "ignored" }
  | { change: "removed"; column: SchemaColumn }
  | { change: "dropped"; column: SchemaColumn }
  | { change: "retyped"; column: SchemaColumn; from: ColumnType; to: ColumnType };

const DAY_MS = 86_400_000;

interface DriftOutcome {
  /** The columns every file of the sink now has, in order: the pin from here on. */
  columns: SchemaColumn[];
  changes: SchemaChange[];
}

/** The pinned schema and the service disagree in a way the policy refuses. */
export class SchemaDriftError extends EtlError {
  constructor(where: string, problems: readonly string[]) {
    const shown = problems.slice(0, DRIFT_DETAILS_SHOWN);
    const more = problems.length - shown.length;
    super(
      "SCHEMA_DRIFT",
      `${where}: the output schema drifted from the pinned schema: ${shown.join("; ")}${more > 0 ? `; and ${more} more` : ""}`,
    );
  }
}

function fieldOf(column: SchemaColumn): string {
  return column.source === null || column.source === column.name
    ? showName(column.name)
    : `${showName(column.source)} (column ${escapedName(column.name)})`;
}

/** A removed column is kept until `keep_removed_days` after the run that first missed its field. */
function keepRemoved(column: SchemaColumn, policy: DriftPolicy, now: Date): SchemaColumn | undefined {
  const since = column.removed_at === undefined ? now.getTime() : Date.parse(column.removed_at);
  const days = policy.keep_removed_days ?? DEFAULT_KEEP_REMOVED_DAYS;
  if (now.getTime() - since >= days * DAY_MS) return undefined;
  return { ...column, removed_at: new Date(since).toISOString() };
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
  at: Date = new Date(),
): DriftOutcome {
  const currentByName = new Map(current.map((column) => [column.name, column]));
  const pinnedNames = new Set(pinned.map((column) => column.name));
  const changes: SchemaChange[] = [];
  const refused: string[] = [];
  const columns: SchemaColumn[] = [];
  for (const pinnedColumn of pinned) {
    const now = currentByName.get(pinnedColumn.name);
    if (now === undefined) {
      const kept = keepRemoved(pinnedColumn, policy, at);
      changes.push(
        kept === undefined
          ? { change: "dropped", column: pinnedColumn }
          : { change: "removed", column: kept },
      );
      if (kept !== undefined) columns.push(kept);
      continue;
    }
    // A field back in the mappings keeps its column as if it never left.
    const { removed_at: _removedAt, ...column } = pinnedColumn;
    if (now.type !== column.type)
      changes.push({ change: "retyped", column, from: column.type, to: now.type });
    // A pinned text column takes any type as text, so a field once written as text stays text.
    if (now.type === column.type || column.type === "string") {
      columns.push(column);
      continue;
    }
    if (policy.type_changes === "fail")
      refused.push(
        `field ${fieldOf(now)} changed type from ${column.type} (pinned) to ${now.type}; schema.type_changes: string writes it as text`,
      );
    columns.push({ ...column, type: "string", nullable: true });
  }
  for (const column of current) {
    if (pinnedNames.has(column.name)) continue;
    if (policy.new_fields === "fail")
      refused.push(
        `field ${fieldOf(column)} (${column.type}) is new; schema.new_fields: add or ignore accepts it`,
      );
    const action = policy.new_fields === "add" ? "added" : "ignored";
    changes.push({ change: "added", column, action });
    if (action === "added") columns.push({ ...column, nullable: true });
  }
  if (refused.length > 0) throw new SchemaDriftError(where, refused);
  return { columns, changes };
}

/** One line per change, for the run summary, `plan` and the log. */
export function describeChange(change: SchemaChange): string {
  switch (change.change) {
    case "added":
      return change.action === "added"
        ? `new field ${fieldOf(change.column)} added as nullable ${change.column.type} column`
        : `new field ${fieldOf(change.column)} ignored (schema.new_fields: ignore)`;
    case "removed":
      return `field ${fieldOf(change.column)} no longer in the service's mappings since ${change.column.removed_at ?? "now"}: column kept, written as nulls (schema.keep_removed_days)`;
    case "dropped":
      return `field ${fieldOf(change.column)} gone from the service's mappings since ${change.column.removed_at ?? "now"}, longer than schema.keep_removed_days: column dropped`;
    case "retyped":
      return `field ${fieldOf(change.column)} changed type from ${change.from} to ${change.to}: written as text`;
  }
}

/** Details a drift summary lists at most: the counts say how many more there are. */
const DRIFT_DETAILS_SHOWN = 20;

/** Each kind of change a summary counts, and how its count reads. */
const COUNTED = {
  added: "new field(s) added",
  ignored: "new field(s) ignored",
  removed: "removed field(s) kept as nulls",
  dropped: "removed field(s) dropped",
  retyped: "field(s) retyped",
} as const;

/** The counts, the first changes described (at most DRIFT_DETAILS_SHOWN) and how many were not. */
type DriftSummary = Record<keyof typeof COUNTED, number> & { details: string[]; more: number };

/** Counts of each kind of change and the first few described: one log line however many fields moved. */
export function summarizeDrift(changes: readonly SchemaChange[]): DriftSummary {
  const summary: DriftSummary = {
    added: 0,
    ignored: 0,
    removed: 0,
    dropped: 0,
    retyped: 0,
    details: [],
    more: 0,
  };
  for (const change of changes) {
    summary[change.change === "added" ? change.action : change.change]++;
    if (summary.details.length < DRIFT_DETAILS_SHOWN) summary.details.push(describeChange(change));
    else summary.more++;
  }
  return summary;
}

/** `3 new fields added, 1 removed (kept as nulls)`: the counts of a summary, for one line. */
export function driftCounts(summary: DriftSummary): string {
  return Object.entries(COUNTED)
    .flatMap(([kind, what]) => {
      const count = summary[kind as keyof typeof COUNTED];
      return count > 0 ? [`${count} ${what}`] : [];
    })
    .join(", ");
}

/**
 * One warning per sink with the counts of each kind of change and the first few described, however
 * many fields moved: a service that adds 100,000 fields costs one line, not 100,000.
 */
export function logDrift(log: Logger, sink: string, changes: readonly SchemaChange[]): void {
  if (changes.length === 0) return;
  const summary = summarizeDrift(changes);
  const { details, more, ...counts } = summary;
  log.warn(
    { sink, ...counts, changes: details, ...(more > 0 ? { more } : {}) },
    `Schema drift: ${driftCounts(summary)}.`,
  );
}

/** The drift of a sink as lines for a terminal (`plan`, `schema`): the first changes, then the counts of the rest. */
export function driftLines(changes: readonly SchemaChange[]): string[] {
  const summary = summarizeDrift(changes);
  return summary.more === 0
    ? summary.details
    : [...summary.details, `… and ${summary.more} more changes (in all: ${driftCounts(summary)})`];
}
