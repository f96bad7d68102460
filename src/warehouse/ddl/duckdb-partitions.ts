// DuckDB: the partition columns of the view. Hive partitioning types them from the directories; but
// DuckDB's Hive column replaces a file's column of the same name, so when a directory's key is also a
// column (`level={level}`) the view reads the files without it and takes the other directories'
// values from each file's path. The column is then the record's own value, read from the file.
import type { PartitionColumn, TableLayout } from "./table-layout.js";
import { sqlString } from "./table-layout.js";
import { quote } from "./duckdb-values.js";
import { partitionType } from "./dialect-types.js";
// What Hive (and the path template) writes for a null or empty value.
import { NULL_PARTITION } from "../../sinks/path-template.js";

/** The column the reader adds with each row's file path, when the directories are read from it. */
const FILE_COLUMN = "mdq_file";

interface DuckdbPartitions {
  /** The reader's options: `, hive_partitioning = …` and what goes with it. */
  readerOptions: string;
  /** One select item per partition column the view has. */
  selects: string[];
}

function escapeRegex(text: string): string {
  return text.replace(/[\\^$.|?*+()[\]{}]/g, "\\$&");
}

/** A directory's value from the file's path, typed as Hive partitioning would type it. */
function fromPath(partition: PartitionColumn, pathRegex: string, group: number): string {
  const value = `regexp_extract(${FILE_COLUMN}, ${sqlString(pathRegex)}, ${group})`;
  const typed =
    partition.source === "text"
      ? `NULLIF(url_decode(${value}), ${sqlString(NULL_PARTITION)})`
      : `TRY_CAST(${value} AS ${partitionType(partition.source, "duckdb")})`;
  return `  ${typed} AS ${quote(partition.name)}`;
}

/**
 * @param readerColumns the reader's own columns (`json` for `read_json_objects`): a Hive column of
 * that name would replace it too
 * @throws Error when a column is named as the file column the view would add
 */
export function duckdbPartitions(layout: TableLayout, readerColumns: readonly string[]): DuckdbPartitions {
  const { partitions } = layout;
  if (partitions.length === 0) return { readerOptions: ", hive_partitioning = false", selects: [] };
  const replacesColumn = (partition: PartitionColumn): boolean =>
    partition.namesColumn || readerColumns.includes(partition.name);
  if (!partitions.some(replacesColumn))
    return {
      readerOptions: `, hive_partitioning = true, hive_types = {${partitions
        .map((partition) => `${sqlString(partition.name)}: ${partitionType(partition.source, "duckdb")}`)
        .join(", ")}}`,
      selects: partitions.map((partition) => `  ${quote(partition.name)}`),
    };
  if (layout.columns.some((column) => column.name === FILE_COLUMN))
    throw new Error(
      `a partition directory has a column's name, and the view would read the directories from a column "${FILE_COLUMN}", which the files have too; rename one of them`,
    );
  // The directories follow the location in the template's order, so one pattern finds them all.
  const pathRegex = `^${escapeRegex(layout.location)}/${partitions.map((p) => `${p.name}=([^/]*)/`).join("")}`;
  return {
    readerOptions: `, hive_partitioning = false, filename = ${sqlString(FILE_COLUMN)}`,
    selects: partitions.flatMap((partition, index) =>
      replacesColumn(partition) ? [] : [fromPath(partition, pathRegex, index + 1)],
    ),
  };
}
