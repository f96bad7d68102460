// Athena / Glue: CREATE EXTERNAL TABLE over the files' location (as the sink's destination names it for
// Athena, or `--location`) with typed partition columns and partition
// projection for the template's date and hour, so new partitions are queryable without MSCK REPAIR.
import type { PartitionColumn, TableLayout } from "./table-layout.js";
import { namedPartitions, requireSafeNames, sqlString } from "./table-layout.js";
import { columnList, columnTypes, partitionType } from "./dialect-types.js";

const TYPES = columnTypes("athena");

/**
 * Column types of JSON lines: a timestamp stays text, since the SerDe's own parsing of ISO 8601 is not
 * one the docs pin down for an offset (`-05:00`); `from_iso8601_timestamp` reads it as the instant.
 */
const JSON_LINES_TYPES = { ...TYPES, timestamp: "string" };

/** A nested record's object as a struct (the SerDe reads its fields by key). */
const struct = (fields: readonly { name: string; type: string }[]): string =>
  `struct<${fields.map((field) => `${field.name}:${field.type}`).join(",")}>`;

function projection(layout: TableLayout, partitions: readonly PartitionColumn[]): string[] {
  const properties: string[] = ["'projection.enabled' = 'true'"];
  for (const partition of partitions) {
    const key = `projection.${partition.name}`;
    if (partition.source === "date")
      properties.push(
        `'${key}.type' = 'date'`,
        `'${key}.format' = 'yyyy-MM-dd'`,
        `'${key}.range' = '${layout.since},NOW'`,
        `'${key}.interval' = '1'`,
        `'${key}.interval.unit' = 'DAYS'`,
      );
    else properties.push(`'${key}.type' = 'integer'`, `'${key}.range' = '0,23'`, `'${key}.digits' = '2'`);
  }
  properties.push(
    `'storage.location.template' = ${sqlString(`${layout.location}/${layout.partitionPath}/`)}`,
  );
  return properties;
}

export function athenaDdl(layout: TableLayout): string {
  requireSafeNames(layout, "Athena");
  const partitions = namedPartitions(layout);
  const types = layout.files.records === "json-lines" ? JSON_LINES_TYPES : TYPES;
  const lines = [
    `CREATE EXTERNAL TABLE IF NOT EXISTS \`${layout.table}\` (`,
    columnList(layout, types, struct),
    ")",
  ];
  if (partitions.length > 0)
    lines.push(
      `PARTITIONED BY (${partitions.map((p) => `\`${p.name}\` ${partitionType(p.source, "athena")}`).join(", ")})`,
    );
  lines.push(layout.files.dialects.athena, `LOCATION ${sqlString(`${layout.location}/`)}`);
  // Projection types cover dates and hours; a partition on a record value needs its values listed.
  const projectable = partitions.length > 0 && partitions.every((p) => p.source !== "text");
  if (projectable) lines.push(`TBLPROPERTIES (\n  ${projection(layout, partitions).join(",\n  ")}\n)`);
  let ddl = `${lines.join("\n")};\n`;
  if (partitions.length > 0 && !projectable)
    ddl += `-- Partitions on record values are not projected; load them after each run:\nMSCK REPAIR TABLE \`${layout.table}\`;\n`;
  return ddl;
}
