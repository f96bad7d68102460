// Five Parquet readers independent of the writer and of each other, each giving a file's rows with values
// made comparable; and a walk over every page header of a file, to see what was written.
import { readFile } from "node:fs/promises";
import { DuckDBInstance } from "@duckdb/node-api";
import { ParquetReader } from "@dsnp/parquetjs";
import { tableFromIPC } from "apache-arrow";
import { parquetMetadata, parquetReadObjects } from "hyparquet";
import type { FileMetaData, PageHeader, SchemaElement } from "hyparquet";
import { parquetHeader } from "hyparquet/src/column.js";
import pl from "nodejs-polars";
import { readParquet as readParquetWasm } from "parquet-wasm";

export type Value = string | number | boolean | null;
export type Rows = Record<string, Value>[];

export interface ParquetReaderUnderTest {
  name: string;
  read: (bytes: Buffer, path: string) => Promise<Record<string, unknown>[]>;
}

/** DuckDB (C++), hyparquet (JS), arrow-rs (parquet-wasm), polars (Rust), parquetjs (JS). */
export const PARQUET_READERS: readonly ParquetReaderUnderTest[] = [
  {
    name: "duckdb",
    read: async (_bytes, path) => {
      const instance = await DuckDBInstance.create(":memory:");
      const connection = await instance.connect();
      try {
        const reader = await connection.runAndReadAll(
          `SELECT * FROM read_parquet('${path.replaceAll("'", "''")}', hive_partitioning = false)`,
        );
        return reader.getRowObjectsJS();
      } finally {
        connection.closeSync();
        instance.closeSync();
      }
    },
  },
  {
    name: "hyparquet",
    read: (bytes) => parquetReadObjects({ file: arrayBufferOf(bytes) }),
  },
  {
    name: "arrow-rs (parquet-wasm)",
    read: async (bytes) => {
      const table = tableFromIPC(readParquetWasm(new Uint8Array(bytes)).intoIPCStream());
      return table.toArray().map((row: { toJSON(): Record<string, unknown> }) => row.toJSON());
    },
  },
  {
    name: "polars",
    read: async (bytes) => pl.readParquet(bytes).toRecords() as Record<string, unknown>[],
  },
  {
    name: "parquetjs",
    read: async (bytes) => {
      const reader = await ParquetReader.openBuffer(bytes);
      try {
        const cursor = reader.getCursor();
        const rows: Record<string, unknown>[] = [];
        for (let row = await cursor.next(); row !== null; row = await cursor.next())
          rows.push(row as Record<string, unknown>);
        return rows;
      } finally {
        await reader.close();
      }
    },
  },
];

const arrayBufferOf = (bytes: Buffer): ArrayBuffer =>
  bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;

/**
 * A reader's row with every column of `timestamps` as ISO text (whether the reader gave a Date or epoch
 * milliseconds), integers as numbers, and absent columns as null.
 */
export function comparable(
  row: Record<string, unknown>,
  columns: readonly string[],
  timestamps: ReadonlySet<string>,
): Record<string, Value> {
  const out: Record<string, Value> = {};
  for (const name of columns) {
    const value = row[name];
    if (value === undefined || value === null) out[name] = null;
    else if (value instanceof Date) out[name] = value.toISOString();
    else if (timestamps.has(name)) out[name] = new Date(Number(value)).toISOString();
    else if (typeof value === "bigint") out[name] = Number(value);
    else out[name] = value as Value;
  }
  return out;
}

export async function readWith(
  reader: ParquetReaderUnderTest,
  path: string,
): Promise<{ rows: Rows; columns: string[] }> {
  const bytes = await readFile(path);
  const metadata = parquetMetadata(arrayBufferOf(bytes));
  const leaves = metadata.schema.slice(1);
  const columns = leaves.map((element) => element.name);
  const timestamps = new Set(leaves.filter(isTimestamp).map((element) => element.name));
  const rows = (await reader.read(bytes, path)).map((row) => comparable(row, columns, timestamps));
  return { rows, columns };
}

const isTimestamp = (element: SchemaElement): boolean =>
  element.logical_type?.type === "TIMESTAMP" || element.converted_type === "TIMESTAMP_MILLIS";

export interface PageSeen {
  column: string;
  physicalType: string;
  header: PageHeader;
}

/** Every page header of every column chunk of the file, in file order, read from the bytes. */
export async function pagesOf(path: string): Promise<{ metadata: FileMetaData; pages: PageSeen[] }> {
  const bytes = await readFile(path);
  const buffer = arrayBufferOf(bytes);
  const metadata = parquetMetadata(buffer);
  const pages: PageSeen[] = [];
  for (const group of metadata.row_groups) {
    for (const chunk of group.columns) {
      const meta = chunk.meta_data;
      if (meta === undefined) throw new Error("a column chunk without metadata");
      const start = Number(meta.dictionary_page_offset ?? meta.data_page_offset);
      const end = start + Number(meta.total_compressed_size);
      const reader = { view: new DataView(buffer), offset: start };
      while (reader.offset < end) {
        const header = parquetHeader(reader);
        pages.push({ column: meta.path_in_schema.join("."), physicalType: meta.type, header });
        reader.offset += header.compressed_page_size;
      }
      if (reader.offset !== end) throw new Error(`the pages of ${meta.path_in_schema.join(".")} overrun`);
    }
  }
  return { metadata, pages };
}
