// What a table definition needs from a sink: where the files are, which glob finds them, and which
// Hive partition columns the path template makes (`dt={date}` → dt DATE, `hour={hour}` → hour INT).
import type { TableFiles } from "../../formats/format.js";
import type { SchemaColumn } from "../output-schema.js";
import { SAFE_COLUMN_NAME } from "../../sinks/warehouse-options.js";

/** How a partition value was made, which fixes its type. */
export type PartitionSource = "date" | "hour" | "text";

export interface PartitionColumn {
  name: string;
  source: PartitionSource;
  /**
   * Whether the directory's key is also a column's name (`level={level}`). The files then hold the
   * column, with the record's own value; the directory holds it escaped and cut to a path component,
   * so a table reads the column from the files and never takes the directory's value for it.
   */
  namesColumn: boolean;
}

/**
 * How JSON-lines records hold the columns. `columns`: one top-level key per column, named as the column
 * (`column_names: snake_case` writes the records so; columnar files are always `columns`).
 * `flattened`: `as_is` after `flatten`, one top-level key per column too, but a field a later
 * transform writes may land in an object the flatten left empty. `nested`: records as the transforms
 * leave them (`as_is` without `flatten`), a dotted column being a path.
 */
export type RecordShape = "columns" | "flattened" | "nested";

/** Everything a dialect needs to print one table definition. */
export interface TableLayout {
  table: string;
  columns: readonly SchemaColumn[];
  /** How the sink's format is read (its `table`). */
  files: TableFiles;
  recordShape: RecordShape;
  writtenByTransforms: readonly string[];
  /** The files' extension: parquet, ndjson or ndjson.gz. */
  extension: string;
  /** The sink's destination (a directory or a URL prefix), without a trailing slash. */
  location: string;
  /** The files below `location`: the path template with every placeholder a `*`. */
  glob: string;
  /** `key={...}` directories of the template, in order; empty when the layout is not Hive-style. */
  partitions: readonly PartitionColumn[];
  /** The template's directory part with `${key}` for each partition (Athena's storage.location.template). */
  partitionPath: string;
  /** First date of the partition projection (YYYY-MM-DD). */
  since: string;
}

/** What a sink says of its files; the rest of a layout is read from its path template. */
export type LayoutInput = Pick<
  TableLayout,
  "table" | "columns" | "files" | "recordShape" | "extension" | "location"
> & {
  /** Paths the transforms write (rename targets, added fields): where they land depends on the record. */
  writtenByTransforms?: readonly string[];
  pathTemplate: string;
  since: Date;
};

/**
 * @example
 * tableLayout({ pathTemplate: "dt={date}/hour={hour}/part-{slice}-{seq}.parquet", ... }).partitions
 * // [{ name: "dt", source: "date" }, { name: "hour", source: "hour" }]
 */
export function tableLayout(input: LayoutInput): TableLayout {
  const ext = input.extension;
  const template = input.pathTemplate.replaceAll("{ext}", ext);
  const directories = template.split("/").slice(0, -1);
  const recordShape = input.files.records === "json-lines" ? input.recordShape : "columns";
  // A nested column is read from its top-level object, whose name a partition must not take either.
  const columnNames = new Set(
    input.columns.flatMap((column) =>
      recordShape === "nested" ? [column.name, column.name.split(".")[0] ?? column.name] : [column.name],
    ),
  );
  const partitions: PartitionColumn[] = [];
  const pathParts: string[] = [];
  for (const directory of directories) {
    const match = /^([^={}]+)=\{\s*([^{}]+?)\s*\}$/.exec(directory);
    if (match === null) {
      // A directory that is not `key={value}` hides the partition values from every engine.
      partitions.length = 0;
      break;
    }
    const [, name = "", placeholder = ""] = match;
    if (!SAFE_COLUMN_NAME.test(name))
      throw new Error(
        `partition directory "${name}=" is not a valid column name (${SAFE_COLUMN_NAME.source})`,
      );
    partitions.push({
      name,
      source: placeholder === "date" ? "date" : placeholder === "hour" ? "hour" : "text",
      namesColumn: columnNames.has(name),
    });
    pathParts.push(`${name}=\${${name}}`);
  }
  const { pathTemplate: _template, since: _since, ...given } = input;
  return {
    ...given,
    recordShape,
    writtenByTransforms: input.writtenByTransforms ?? [],
    location: input.location.replace(/\/+$/, ""),
    glob: template.replace(/\{[^{}]*\}/g, "*"),
    partitions,
    partitionPath: partitions.length > 0 ? pathParts.join("/") : "",
    since: input.since.toISOString().slice(0, 10),
  };
}

/**
 * Refuses a column name a warehouse would reject, pointing at the option that fixes it. A nested
 * column is declared as fields of objects, so each of its keys must be a name the warehouse accepts.
 */
export function requireSafeNames(layout: TableLayout, dialect: string): void {
  const safe = (name: string): boolean =>
    layout.recordShape === "nested"
      ? name.split(".").every((key) => SAFE_COLUMN_NAME.test(key))
      : SAFE_COLUMN_NAME.test(name);
  const unsafe = layout.columns.filter((column) => !safe(column.name));
  if (unsafe.length > 0)
    throw new Error(
      `${dialect} does not accept the column names ${unsafe.map((column) => JSON.stringify(column.name)).join(", ")}; set column_names: snake_case on the sink`,
    );
}

/** SQL string literal. */
export function sqlString(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}

/**
 * The partition columns an engine that names them after the directories declares (Athena, BigQuery):
 * none when a directory's key is also a column's name, since the two cannot share the name and the
 * column, read from the files, is the record's own value. The files are then read without partitions.
 */
export function namedPartitions(layout: TableLayout): readonly PartitionColumn[] {
  return layout.partitions.some((partition) => partition.namesColumn) ? [] : layout.partitions;
}
