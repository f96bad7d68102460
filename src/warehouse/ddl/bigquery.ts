// BigQuery: an external table over Cloud Storage with Hive partitioning; the partition columns are
// declared with their types (`WITH PARTITION COLUMNS`) instead of being inferred as text.
import type { ColumnType } from "../../core/contracts.js";
import type { PartitionSource, TableLayout } from "./table-layout.js";
import { namedPartitions, requireSafeNames, sqlString } from "./table-layout.js";
import { nestedFields } from "./record-paths.js";
import type { RecordField } from "./record-paths.js";

const TYPES: Readonly<Record<ColumnType, string>> = {
  string: "STRING",
  double: "FLOAT64",
  int64: "INT64",
  int32: "INT64",
  boolean: "BOOL",
  timestamp: "TIMESTAMP",
  // External Parquet tables cannot declare JSON; PARSE_JSON reads the text.
  json: "STRING",
};

const PARTITION_TYPES: Readonly<Record<PartitionSource, string>> = {
  date: "DATE",
  hour: "INT64",
  text: "STRING",
};

/** A nested record's object as a STRUCT (a RECORD column), its fields typed the same way. */
function fieldType(field: RecordField): string {
  if ("column" in field) return TYPES[field.column.type];
  return `STRUCT<${field.fields.map((inner) => `\`${inner.name}\` ${fieldType(inner)}`).join(", ")}>`;
}

function columnList(layout: TableLayout): string {
  const fields: RecordField[] =
    layout.recordShape === "nested"
      ? nestedFields(layout.columns, layout.writtenByTransforms)
      : layout.columns.map((column) => ({ name: column.name, column }));
  return fields.map((field) => `  \`${field.name}\` ${fieldType(field)}`).join(",\n");
}

/** BigQuery reads Cloud Storage; the destination (or `--location`) names the files there. */
function gcsLocation(location: string): string {
  if (location.startsWith("gs://")) return location;
  throw new Error(`BigQuery reads gs:// locations, not "${location}"; pass --location gs://bucket/prefix`);
}

export function bigqueryDdl(layout: TableLayout, dataset: string): string {
  requireSafeNames(layout, "BigQuery");
  const location = gcsLocation(layout.location);
  const lines = [
    `CREATE OR REPLACE EXTERNAL TABLE \`${dataset}.${layout.table}\` (`,
    columnList(layout),
    ")",
  ];
  const partitions = namedPartitions(layout);
  if (partitions.length > 0)
    lines.push(
      `WITH PARTITION COLUMNS (\n${partitions.map((p) => `  \`${p.name}\` ${PARTITION_TYPES[p.source]}`).join(",\n")}\n)`,
    );
  const options = [
    `format = ${sqlString(layout.files.dialects.bigquery)}`,
    ...(layout.files.gzip ? ["compression = 'GZIP'"] : []),
    // One wildcard is allowed, and it spans directories; the extension keeps the manifest out.
    `uris = [${sqlString(`${location}/*.${layout.extension}`)}]`,
    ...(partitions.length > 0 ? [`hive_partition_uri_prefix = ${sqlString(location)}`] : []),
  ];
  lines.push(`OPTIONS (\n  ${options.join(",\n  ")}\n)`);
  return `${lines.join("\n")};\n`;
}
