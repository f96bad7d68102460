// Parquet through hyparquet-writer: rows are buffered per column and written one row group at a time.
import { ParquetWriter } from "hyparquet-writer";
import { z } from "zod";
import type { RecordBatch, Column, RowEncoder } from "../../core/contracts.js";
import { recordCount } from "../../core/record-batch.js";
import { FileBytes } from "./file-bytes.js";
import { parquetSchema } from "./schema.js";
import { SinkError } from "../../errors.js";
import { ColumnBuffers } from "./column-buffers.js";
import { parquetColumnCoercers } from "./coercers.js";
import type { Format } from "../format.js";
import { CREATED_BY, encodeRowGroup, placeRowGroup } from "./row-group.js";
import type { RowGroupFile } from "./row-group.js";
import { countParquetRows } from "./footer.js";
import type { Codec, PageVersion } from "./pages.js";
import { joinParquetFiles } from "./join.js";
import { parquetRows, wholeBytes } from "../decode-rows.js";

const DEFAULT_ROW_GROUP_ROWS = 100_000;

/**
 * A row group is also written once the values buffered for it reach about this many bytes (string
 * characters, plus 8 per value). hyparquet-writer needs several times the buffered values while it
 * encodes a row group (a byte array per string, dictionaries, pages), so this, not the row count, bounds
 * a file's memory: about 6,500 job rows. 2 MiB rather than 4 took a Parquet export's peak RSS from
 * 296 to 264 MB at the same CPU (485,050 jobs, 4 slices at once; docs/performance.md). Checked after
 * each batch, so a row group ends at most one batch past it.
 */
export const DEFAULT_ROW_GROUP_BYTES = 2 * 1024 * 1024;

const parquetOptions = {
  compression: z.enum(["snappy", "uncompressed"]).default("snappy").describe("Parquet page compression."),
  row_group_rows: z
    .number()
    .int()
    .min(1000)
    .default(DEFAULT_ROW_GROUP_ROWS)
    .describe("Rows per Parquet row group (warehouse readers like 100k to 1M)."),
  parquet: z
    .strictObject({
      page_version: z
        .literal([1, 2])
        .default(1)
        .describe(
          "Data page layout: 1 (DATA_PAGE, which every engine reads) or 2 (DATA_PAGE_V2, which Spark before 3.3, Presto C++, StarRocks and fastparquet cannot read or misread).",
        ),
    })
    .optional()
    .describe("How Parquet pages are laid out."),
};

export interface ParquetSettings {
  /** Page compression. */
  compression?: "snappy" | "uncompressed";
  /** Rows buffered before a row group is written. */
  rowGroupRows?: number;
  /** About this many bytes of values buffered also end a row group (tests lower it). */
  rowGroupBytes?: number;
  /** Data page layout: 1 (DATA_PAGE, the default) or 2 (DATA_PAGE_V2). */
  pageVersion?: PageVersion;
}

export const parquetFormat: Format<ParquetSettings> = {
  type: "parquet",
  summary: "Columnar files for warehouses: typed columns from the mappings, snappy pages, row groups.",
  options: parquetOptions,
  // A reader needs the footer at the end before it can read anything.
  streams: false,
  columnar: true,
  // Its column buffers read values a columns reader took from the service's bytes, or rows by name.
  takes: { shape: "columns", coercers: parquetColumnCoercers },
  settings: (sink) => {
    const { compression, row_group_rows, parquet } = z.object(parquetOptions).parse(sink);
    return { compression, rowGroupRows: row_group_rows, pageVersion: parquet?.page_version ?? 1 };
  },
  extension: () => "parquet",
  contentType: () => "application/vnd.apache.parquet",
  createEncoder: (columns, settings) => createParquetEncoder(columns, settings),
  decodeRows: (chunks, columns, _settings, batchRows) => parquetRows(chunks, columns, batchRows),
  join: (files, columns, settings) =>
    joinParquetFiles(wholeFiles(files), parquetSchema(columns), codecOf(settings)),
  countRows: (chunks) => countParquetRows(chunks),
  table: () => ({
    records: "columns",
    gzip: false,
    dialects: { duckdb: "read_parquet", athena: "STORED AS PARQUET", bigquery: "PARQUET" },
  }),
};

const codecOf = (settings: ParquetSettings): Codec =>
  settings.compression === "uncompressed" ? "UNCOMPRESSED" : "SNAPPY";

/**
 * Row groups are encoded on this thread from rows read into column arrays. Encoding them on worker
 * threads from the rows' NDJSON bytes was measured slower on two cores (docs/performance.md), and
 * `limits.encode_threads` is kept only so that pipelines naming it still load.
 */
function createParquetEncoder(columns: readonly Column[], options: ParquetSettings): RowEncoder {
  if (columns.length === 0) {
    throw new SinkError("a Parquet file needs at least one column; declare the fields the sink writes", {
      code: "SINK_NO_COLUMNS",
    });
  }
  const rowGroupRows = options.rowGroupRows ?? DEFAULT_ROW_GROUP_ROWS;
  const rowGroupBytes = options.rowGroupBytes ?? DEFAULT_ROW_GROUP_BYTES;
  const schema = parquetSchema(columns);
  const codec = codecOf(options);
  const bytes = new FileBytes(1 << 10);
  const parquet = new ParquetWriter({ writer: bytes, schema, codec, createdBy: CREATED_BY });
  const file: RowGroupFile = { columns: [...columns], codec, pageVersion: options.pageVersion ?? 1 };
  const buffers = new ColumnBuffers(columns);

  const writeRowGroup = (): void => {
    if (buffers.rows === 0) return;
    const sizeHint = buffers.bytes;
    const encoded = encodeRowGroup({ ...file, values: buffers.take(), sizeHint });
    placeRowGroup(encoded, bytes.offset);
    bytes.adopt(encoded.bytes);
    parquet.row_groups.push(encoded.rowGroup);
    parquet.num_rows += encoded.rowGroup.num_rows;
    parquet.pendingIndexes.push(...encoded.indexes);
  };

  return {
    async encode(batch: RecordBatch) {
      const count = recordCount(batch);
      let start = 0;
      while (start < count) {
        const end = Math.min(count, start + rowGroupRows - buffers.rows);
        buffers.append(batch, start, end);
        start = end;
        if (buffers.rows >= rowGroupRows || buffers.bytes >= rowGroupBytes) writeRowGroup();
      }
      return bytes.take();
    },
    async finish() {
      writeRowGroup();
      await parquet.finish();
      return bytes.take();
    },
    replacedSurrogates: () => buffers.replaced.count,
  };
}

/** Each file's bytes at once (`wholeBytes`). */
async function* wholeFiles(files: AsyncIterable<AsyncIterable<Uint8Array>>): AsyncGenerator<Uint8Array> {
  for await (const file of files) yield await wholeBytes(file);
}
