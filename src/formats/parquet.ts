// Parquet through hyparquet-writer: rows are buffered per column and written one row group at a time.
import { ByteWriter, ParquetWriter } from "hyparquet-writer";
import { z } from "zod";
import type { ColumnSource, SchemaElement } from "hyparquet-writer";
import type { Batch, Column, ColumnType, RowEncoder } from "../pipeline/contracts.js";
import { SinkError } from "../errors.js";
import { coercers } from "./coerce-value.js";
import type { Coercer, ParquetValue } from "./coerce-value.js";
import { createColumnReader } from "./column-value.js";
import type { ColumnReader } from "./column-value.js";
import type { Format } from "./format.js";
import { countParquetRows } from "./parquet-footer.js";

export const DEFAULT_ROW_GROUP_ROWS = 100_000;

/**
 * A row group is also written once the values buffered for it reach about this many bytes (string
 * characters, plus 8 per value). hyparquet-writer needs several times the buffered values while it
 * encodes a row group (a byte array per string, dictionaries, pages), so this, not the row count, bounds
 * a file's memory: about 13,000 job rows (measured in bench/, docs/performance.md). Checked after each
 * batch, so a row group ends at most one batch past it.
 */
export const DEFAULT_ROW_GROUP_BYTES = 4 * 1024 * 1024;

const parquetOptions = {
  compression: z.enum(["snappy", "uncompressed"]).default("snappy").describe("Parquet page compression."),
  row_group_rows: z
    .number()
    .int()
    .min(1000)
    .default(DEFAULT_ROW_GROUP_ROWS)
    .describe("Rows per Parquet row group (warehouse readers like 100k to 1M)."),
};

export interface ParquetSettings {
  /** Page compression. */
  compression?: "snappy" | "uncompressed";
  /** Rows buffered before a row group is written. */
  rowGroupRows?: number;
  /** About this many bytes of values buffered also end a row group (tests lower it). */
  rowGroupBytes?: number;
}

export const parquetFormat: Format<ParquetSettings> = {
  type: "parquet",
  summary: "Columnar files for warehouses: typed columns from the mappings, snappy pages, row groups.",
  options: parquetOptions,
  // A reader needs the footer at the end before it can read anything.
  streams: false,
  settings: (sink) => {
    const { compression, row_group_rows } = z.object(parquetOptions).parse(sink);
    return { compression, rowGroupRows: row_group_rows };
  },
  extension: () => "parquet",
  contentType: () => "application/vnd.apache.parquet",
  createEncoder: (columns, settings) => createParquetEncoder(columns, settings),
  countRows: (chunks) => countParquetRows(chunks),
};

/** Every column is OPTIONAL: the service omits fields freely, so any value may be null. */
export function schemaElementFor(column: Column): SchemaElement {
  const base = { name: column.name, repetition_type: "OPTIONAL" } as const;
  const byType: Record<ColumnType, SchemaElement> = {
    string: { ...base, type: "BYTE_ARRAY", converted_type: "UTF8" },
    json: { ...base, type: "BYTE_ARRAY", converted_type: "UTF8" },
    double: { ...base, type: "DOUBLE" },
    int64: { ...base, type: "INT64" },
    int32: { ...base, type: "INT32" },
    boolean: { ...base, type: "BOOLEAN" },
    timestamp: { ...base, type: "INT64", converted_type: "TIMESTAMP_MILLIS" },
  };
  return byType[column.type];
}

/**
 * hyparquet-writer's ByteWriter grows one buffer for the whole file; flushing after each row group
 * hands the bytes on and rewinds the buffer, so memory holds one row group, not the file.
 * `offset` keeps counting, which the column chunk offsets in the footer depend on.
 */
class RowGroupWriter extends ByteWriter {
  private readonly ready: Uint8Array[] = [];

  flush(): void {
    if (this.index === 0) return;
    this.ready.push(new Uint8Array(this.buffer.slice(0, this.index)));
    this.index = 0;
  }

  override finish(): void {
    this.flush();
  }

  take(): Uint8Array[] {
    return this.ready.splice(0, this.ready.length);
  }
}

interface PreparedColumn {
  name: string;
  read: ColumnReader;
  coerce: Coercer;
  values: ParquetValue[];
  /** Strings vary in size; other values are counted as 8 bytes. */
  isText: boolean;
}

function createParquetEncoder(columns: readonly Column[], options: ParquetSettings): RowEncoder {
  if (columns.length === 0) {
    throw new SinkError("a Parquet file needs at least one column; declare the fields the sink writes", {
      code: "SINK_NO_COLUMNS",
    });
  }
  const rowGroupRows = options.rowGroupRows ?? DEFAULT_ROW_GROUP_ROWS;
  const rowGroupBytes = options.rowGroupBytes ?? DEFAULT_ROW_GROUP_BYTES;
  const writer = new RowGroupWriter(1 << 16);
  const parquet = new ParquetWriter({
    writer,
    schema: [{ name: "root", num_children: columns.length }, ...columns.map(schemaElementFor)],
    codec: options.compression === "uncompressed" ? "UNCOMPRESSED" : "SNAPPY",
    createdBy: "mdq-export (hyparquet-writer)",
  });
  const prepared: PreparedColumn[] = columns.map((column) => ({
    name: column.name,
    read: createColumnReader(column),
    coerce: coercers[column.type],
    values: [],
    isText: column.type === "string" || column.type === "json",
  }));
  let buffered = 0;
  let bufferedBytes = 0;

  const writeRowGroup = (): void => {
    if (buffered === 0) return;
    const columnData: ColumnSource[] = prepared.map((column) => ({ name: column.name, data: column.values }));
    parquet.write({ columnData, rowGroupSize: buffered });
    for (const column of prepared) column.values = [];
    buffered = 0;
    bufferedBytes = 0;
  };

  return {
    async encode(batch: Batch) {
      let start = 0;
      while (start < batch.length) {
        const end = Math.min(batch.length, start + rowGroupRows - buffered);
        // Column by column keeps each loop monomorphic: one reader and one coercer per pass.
        let textLength = 0;
        for (const column of prepared) {
          const { read, coerce, values } = column;
          if (column.isText) {
            for (let i = start; i < end; i++) {
              const value = coerce(read(batch[i] as Batch[number]));
              if (typeof value === "string") textLength += value.length;
              values.push(value);
            }
          } else {
            for (let i = start; i < end; i++) values.push(coerce(read(batch[i] as Batch[number])));
          }
        }
        buffered += end - start;
        bufferedBytes += textLength + (end - start) * prepared.length * 8;
        start = end;
        if (buffered >= rowGroupRows || bufferedBytes >= rowGroupBytes) writeRowGroup();
      }
      return writer.take();
    },
    async finish() {
      writeRowGroup();
      parquet.finish();
      return writer.take();
    },
  };
}
