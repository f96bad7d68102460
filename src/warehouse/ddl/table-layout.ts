// What a table definition needs from a sink: where the files are, which glob finds them, and which
// Hive partition columns the path template makes (`dt={date}` → dt DATE, `hour={hour}` → hour INT).
import type { SchemaColumn } from "../output-schema.js";
import { SAFE_COLUMN_NAME } from "../column-names.js";

/** How a partition value was made, which fixes its type. */
export type PartitionSource = "date" | "hour" | "text";

export interface PartitionColumn {
  name: string;
  source: PartitionSource;
}

/** Everything a dialect needs to print one table definition. */
export interface TableLayout {
  table: string;
  columns: readonly SchemaColumn[];
  format: "parquet" | "ndjson";
  gzip: boolean;
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

export interface LayoutInput {
  table: string;
  columns: readonly SchemaColumn[];
  format: "parquet" | "ndjson";
  gzip: boolean;
  /** The format's file extension (`{ext}`): parquet, ndjson, ndjson.gz. */
  extension: string;
  location: string;
  pathTemplate: string;
  since: Date;
}

/**
 * @example
 * tableLayout({ pathTemplate: "dt={date}/hour={hour}/part-{slice}-{seq}.parquet", ... }).partitions
 * // [{ name: "dt", source: "date" }, { name: "hour", source: "hour" }]
 */
export function tableLayout(input: LayoutInput): TableLayout {
  const ext = input.extension;
  const template = input.pathTemplate.replaceAll("{ext}", ext);
  const directories = template.split("/").slice(0, -1);
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
    if (input.columns.some((column) => column.name === name))
      throw new Error(`partition directory "${name}=" has the name of a column; rename one of them`);
    partitions.push({
      name,
      source: placeholder === "date" ? "date" : placeholder === "hour" ? "hour" : "text",
    });
    pathParts.push(`${name}=\${${name}}`);
  }
  return {
    table: input.table,
    columns: input.columns,
    format: input.format,
    gzip: input.gzip,
    extension: ext,
    location: input.location.replace(/\/+$/, ""),
    glob: template.replace(/\{[^{}]*\}/g, "*"),
    partitions,
    partitionPath: partitions.length > 0 ? pathParts.join("/") : "",
    since: input.since.toISOString().slice(0, 10),
  };
}

/** Refuses a column name a warehouse would reject, pointing at the option that fixes it. */
export function requireSafeNames(layout: TableLayout, dialect: string): void {
  const unsafe = layout.columns.filter((column) => !SAFE_COLUMN_NAME.test(column.name));
  if (unsafe.length > 0)
    throw new Error(
      `${dialect} does not accept the column names ${unsafe.map((column) => `"${column.name}"`).join(", ")}; set column_names: snake_case on the sink`,
    );
}

/** SQL string literal. */
export function sqlString(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}
