// DuckDB: a view over read_parquet/read_json with Hive partitioning, each column cast to its pinned
// type and the partition columns typed, so `hour` is an integer and `dt` a date.
import type { ColumnType } from "../../pipeline/contracts.js";
import type { PartitionSource, TableLayout } from "./table-layout.js";
import { sqlString } from "./table-layout.js";

const TYPES: Readonly<Record<ColumnType, string>> = {
  string: "VARCHAR",
  double: "DOUBLE",
  int64: "BIGINT",
  int32: "INTEGER",
  boolean: "BOOLEAN",
  timestamp: "TIMESTAMP",
  json: "JSON",
};

const PARTITION_TYPES: Readonly<Record<PartitionSource, string>> = {
  date: "DATE",
  hour: "INTEGER",
  text: "VARCHAR",
};

function quote(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

export function duckdbDdl(layout: TableLayout): string {
  const hive =
    layout.partitions.length > 0
      ? `, hive_partitioning = true, hive_types = {${layout.partitions
          .map((partition) => `${sqlString(partition.name)}: ${PARTITION_TYPES[partition.source]}`)
          .join(", ")}}`
      : ", hive_partitioning = false";
  const files = sqlString(`${layout.location}/${layout.glob}`);
  // Text columns come back as VARCHAR from JSON too; explicit columns keep read_json from guessing.
  const reader =
    layout.format === "parquet"
      ? `read_parquet(${files}${hive}, union_by_name = true)`
      : `read_json(${files}, format = 'newline_delimited'${hive}, columns = {${layout.columns
          .map(
            (column) =>
              `${sqlString(column.name)}: ${sqlString(column.type === "json" ? "JSON" : "VARCHAR")}`,
          )
          .join(", ")}})`;
  const select = [
    ...layout.columns.map(
      (column) => `  CAST(${quote(column.name)} AS ${TYPES[column.type]}) AS ${quote(column.name)}`,
    ),
    ...layout.partitions.map((partition) => `  ${quote(partition.name)}`),
  ];
  return `CREATE OR REPLACE VIEW ${quote(layout.table)} AS\nSELECT\n${select.join(",\n")}\nFROM ${reader};\n`;
}
