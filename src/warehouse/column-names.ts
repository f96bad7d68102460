// Warehouse-safe column names: Athena/Glue and BigQuery accept `[a-z_][a-z0-9_]*` and nothing else,
// so a sink with `column_names: snake_case` writes `job_execution_time_elapsed` for
// `job.execution_time.elapsed` and `timestamp` for `@timestamp`. Where that gives two of a kind's own
// fields one name, the kind names one of them (logs: `app_timestamp`); a sink's
// `column_name_overrides` names single columns itself, which is how two fields that would share a
// name are told apart.
import type { Column } from "../core/contracts.js";
import type { ColumnNaming } from "../sinks/warehouse-options.js";
import { showName } from "./show-name.js";

const isUpper = (code: number): boolean => code >= 65 && code <= 90;
const isLower = (code: number): boolean => code >= 97 && code <= 122;
const isDigit = (code: number): boolean => code >= 48 && code <= 57;
const UNDERSCORE = 95;

/**
 * `@timestamp` → `timestamp`, `job.execution_time.elapsed` → `job_execution_time_elapsed`,
 * `logLevel` → `log_level`, `HTTPStatus` → `http_status`, `2xx` → `_2xx`; `_id` stays `_id`.
 * Every run of other characters becomes one `_`; a leading `@` is dropped (the search engine's
 * marker, not part of the name). One pass per step, never a backtracking pattern: names come from
 * the service, and a regular expression over a long run of capitals or underscores was quadratic.
 */
export function snakeCaseName(name: string): string {
  let start = 0;
  while (start < name.length && name.charCodeAt(start) === 64) start++;
  // Word boundaries: before a capital after a lowercase letter or digit (`logLevel`), and before the
  // last capital of a run that a lowercase letter follows (`HTTPStatus` → `HTTP_Status`).
  let split = "";
  for (let index = start; index < name.length; index++) {
    const code = name.charCodeAt(index);
    if (isUpper(code) && index > start) {
      const before = name.charCodeAt(index - 1);
      const after = index + 1 < name.length ? name.charCodeAt(index + 1) : -1;
      if (isLower(before) || isDigit(before) || (isUpper(before) && isLower(after))) split += "_";
    }
    split += name[index];
  }
  // Lowercased whole, as before: some characters lowercase to ASCII letters (the Kelvin sign to `k`).
  const lower = split.toLowerCase();
  let words = "";
  let inRun = false;
  for (let index = 0; index < lower.length; index++) {
    const code = lower.charCodeAt(index);
    if (isLower(code) || isDigit(code) || code === UNDERSCORE) {
      words += lower[index];
      inRun = false;
    } else if (!inRun) {
      words += "_";
      inRun = true;
    }
  }
  let end = words.length;
  while (end > 0 && words.charCodeAt(end - 1) === UNDERSCORE) end--;
  const safe = end === 0 ? "_" : words.slice(0, end);
  return isDigit(safe.charCodeAt(0)) ? `_${safe}` : safe;
}

/**
 * A sink's naming rules: the naming, the columns named one by one (field → column name), and under
 * snake_case the data kind's own names for its fields that snake_case alone would give one name.
 */
export interface ColumnNamingRules {
  naming: ColumnNaming;
  overrides?: ReadonlyMap<string, string> | undefined;
  kindNames?: ReadonlyMap<string, string> | undefined;
}

/** The rules of a sink as its YAML gives them, with the kind's snake_case names (`kindColumnNames`). */
export function namingRules(
  sink: {
    column_names: ColumnNaming;
    column_name_overrides?: Readonly<Record<string, string>> | undefined;
  },
  kindNames?: Readonly<Record<string, string>>,
): ColumnNamingRules {
  const overrides = sink.column_name_overrides;
  return {
    naming: sink.column_names,
    overrides: overrides === undefined ? undefined : new Map(Object.entries(overrides)),
    kindNames: kindNames === undefined ? undefined : new Map(Object.entries(kindNames)),
  };
}

/** The name a column gets under a sink's rules: its override, else the naming's (the kind's name first). */
export function columnName(name: string, rules: ColumnNamingRules): string {
  const { naming, overrides, kindNames } = rules;
  const override = overrides?.get(name);
  if (override !== undefined) return override;
  if (naming !== "snake_case") return name;
  return kindNames?.get(name) ?? snakeCaseName(name);
}

/**
 * The rules for these columns: a kind's name applies only to a field that snake_case would otherwise
 * give the name of another column, so where none meet the plain names stay (an upgrade renames no
 * column of a table that ran before, and a pipeline that renamed or left out `@timestamp` keeps
 * `timestamp`).
 */
export function rulesForColumns(rules: ColumnNamingRules, columns: readonly Column[]): ColumnNamingRules {
  const { kindNames } = rules;
  if (kindNames === undefined || rules.naming !== "snake_case") return rules;
  const plain = { naming: rules.naming, overrides: rules.overrides };
  const taken = new Map<string, number>();
  for (const column of columns) {
    const name = columnName(column.name, plain);
    taken.set(name, (taken.get(name) ?? 0) + 1);
  }
  const meeting = [...kindNames].filter(
    ([field]) =>
      columns.some((column) => column.name === field) && (taken.get(columnName(field, plain)) ?? 0) > 1,
  );
  return { ...rules, kindNames: meeting.length === 0 ? undefined : new Map(meeting) };
}

/** Whether the rules can give a column another name than the rows carry. */
export function renamesColumns(rules: ColumnNamingRules): boolean {
  return rules.naming === "snake_case" || (rules.overrides?.size ?? 0) > 0;
}

/** The hit's own columns, in every record: a mapped field of the same name cannot replace them. */
export const HIT_IDENTITY: ReadonlySet<string> = new Set(["_id", "_index"]);

/** Two columns that end up with the same name. */
interface ColumnCollision {
  name: string;
  columns: readonly [string, string];
  /** The columns' types, in the same order. */
  types: readonly [string, string];
  naming: ColumnNaming;
}

/** Columns whose new names clash (two fields, or one field listed twice); empty when one to one. */
export function columnCollisions(columns: readonly Column[], rules: ColumnNamingRules): ColumnCollision[] {
  const seen = new Map<string, Column>();
  const collisions: ColumnCollision[] = [];
  for (const column of columns) {
    const name = columnName(column.name, rules);
    const earlier = seen.get(name);
    if (earlier === undefined) seen.set(name, column);
    else
      collisions.push({
        name,
        columns: [earlier.name, column.name],
        types: [earlier.type, column.type],
        naming: rules.naming,
      });
  }
  return collisions;
}

/** The message a collision gives, naming both fields and the ways out. */
export function collisionMessage(collision: ColumnCollision): string {
  const [first, second] = collision.columns;
  if (first === second && HIT_IDENTITY.has(first))
    return `the service maps a field named ${showName(first)} in the records, the name of the hit's own column; a record's _id and _index are always the hit's, so the field cannot be written under that name: name the fields to export in source.fields, without ${showName(first)}`;
  if (first === second)
    return `the field ${showName(first)} comes twice (as ${collision.types[0]} and as ${collision.types[1]}: a transform adds it again) and one column cannot hold both; drop one with a transform (drop: { fields: [${showName(first)}] }) or rename it`;
  const override = `or give one its own column with column_name_overrides: { ${showName(second)}: <name> }`;
  const keep = collision.naming === "snake_case" ? ", or keep column_names: as_is" : "";
  return `column_names: ${collision.naming} turns both ${showName(first)} and ${showName(second)} into ${showName(collision.name)}; rename one of them with a transform (rename: { ${showName(second)}: <new name> }), ${override}${keep}`;
}
