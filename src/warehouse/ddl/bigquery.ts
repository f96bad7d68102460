// BigQuery: an external table over Cloud Storage with Hive partitioning; the partition columns are
// declared with their types (`WITH PARTITION COLUMNS`) instead of being inferred as text.
import type { TableLayout } from "./table-layout.js";
import { namedPartitions, requireSafeNames, sqlString } from "./table-layout.js";
import { columnList, columnTypes, partitionType } from "./dialect-types.js";

const TYPES = columnTypes("bigquery");

/** A nested record's object as a STRUCT (a RECORD column). */
const struct = (fields: readonly { name: string; type: string }[]): string =>
  `STRUCT<${fields.map((field) => `\`${field.name}\` ${field.type}`).join(", ")}>`;

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
    columnList(layout, TYPES, struct),
    ")",
  ];
  const partitions = namedPartitions(layout);
  if (partitions.length > 0)
    lines.push(
      `WITH PARTITION COLUMNS (\n${partitions.map((p) => `  \`${p.name}\` ${partitionType(p.source, "bigquery")}`).join(",\n")}\n)`,
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
