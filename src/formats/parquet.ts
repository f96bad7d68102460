// Parquet through hyparquet-writer: rows are buffered per column and written one row group at a time.
import { ParquetWriter } from "hyparquet-writer";
import { z } from "zod";
import type { RecordBatch, Column, RowEncoder } from "../core/contracts.js";
import { FileBytes } from "./parquet-file-bytes.js";
import { parquetSchema } from "./parquet-schema.js";
import { EtlError, SinkError } from "../errors.js";
import { encodeLines } from "./ndjson.js";
import { ColumnBuffers } from "./parquet-column-buffers.js";
import type { LinesTask, RefusedRowGroup } from "./parquet-row-group-worker.js";
import type { EncoderContext, Format } from "./format.js";
import { CREATED_BY, encodeRowGroup, placeRowGroup } from "./parquet-row-group.js";
import type { EncodedRowGroup, RowGroupFile } from "./parquet-row-group.js";
import { countParquetRows } from "./parquet-footer.js";
import type { Codec, PageVersion } from "./parquet-pages.js";
import { joinParquetFiles } from "./parquet-join.js";
import { parquetRows } from "./decode-rows.js";

export const DEFAULT_ROW_GROUP_ROWS = 100_000;

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
  // Row groups are encoded on worker threads when the run has them to spare.
  usesWorkers: true,
  // Rows go to a worker as NDJSON lines; in this thread they are read column by column, by name.
  writesRowJson: (_settings, context) => context.workers !== undefined && context.workers.threads > 0,
  // In this thread its column buffers read taken values; a worker gets rows as NDJSON lines instead.
  takesColumnValues: (_settings, context) => context.workers === undefined || context.workers.threads === 0,
  settings: (sink) => {
    const { compression, row_group_rows, parquet } = z.object(parquetOptions).parse(sink);
    return { compression, rowGroupRows: row_group_rows, pageVersion: parquet?.page_version ?? 1 };
  },
  extension: () => "parquet",
  contentType: () => "application/vnd.apache.parquet",
  createEncoder: (columns, settings, context = {}) => createParquetEncoder(columns, settings, context),
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
 * Row groups of one file in the worker before the file's next one waits for the oldest: the slice
 * reads its next pages meanwhile. Each holds its records' JSON (about 8 MiB) until it is encoded.
 */
const ROW_GROUPS_IN_FLIGHT = 2;

/** Compiled next to this module; absent when running from the TypeScript sources (tests). */
const ROW_GROUP_WORKER = new URL("./parquet-row-group-worker.js", import.meta.url);

/**
 * Row groups are encoded in-thread from rows read into column arrays, or, when the run lends worker
 * threads (`limits.encode_threads`) and the rows are as the service sent them (their JSON spliced,
 * see RecordBatch), in a worker from the rows' NDJSON bytes: the bytes move to the worker whole, and the
 * parsing, column reading, encoding and their garbage happen there while this thread reads the next
 * pages. Cloning column values to a worker instead cost more CPU than it moved (+19% CPU per
 * record, no faster; docs/performance.md). Row groups are encoded apart and placed in the file in
 * order as they come back.
 */
function createParquetEncoder(
  columns: readonly Column[],
  options: ParquetSettings,
  context: EncoderContext,
): RowEncoder {
  if (columns.length === 0) {
    throw new SinkError("a Parquet file needs at least one column; declare the fields the sink writes", {
      code: "SINK_NO_COLUMNS",
    });
  }
  const rowGroupRows = options.rowGroupRows ?? DEFAULT_ROW_GROUP_ROWS;
  const rowGroupBytes = options.rowGroupBytes ?? DEFAULT_ROW_GROUP_BYTES;
  // Records' JSON is about twice their values' size (the keys, quotes and punctuation): 13,000 jobs.
  const rowGroupLineBytes = 2 * rowGroupBytes;
  const schema = parquetSchema(columns);
  const codec = codecOf(options);
  const bytes = new FileBytes(1 << 10);
  const parquet = new ParquetWriter({ writer: bytes, schema, codec, createdBy: CREATED_BY });
  const file: RowGroupFile = { columns: [...columns], codec, pageVersion: options.pageVersion ?? 1 };
  const encodeInWorker = context.workers?.runner<LinesTask, EncodedRowGroup | RefusedRowGroup>(
    ROW_GROUP_WORKER,
    "encodeLinesInWorker",
  );
  const buffers = new ColumnBuffers(columns);
  const lineReplaced = { count: 0 };
  let lines: Uint8Array[] = [];
  let lineRows = 0;
  let lineBytes = 0;
  let inWorker: boolean | undefined;
  /** Row groups in the worker, in file order. */
  const inFlight: Promise<EncodedRowGroup | RefusedRowGroup>[] = [];

  const adopt = (encoded: EncodedRowGroup): void => {
    placeRowGroup(encoded, bytes.offset);
    bytes.adopt(encoded.bytes);
    parquet.row_groups.push(encoded.rowGroup);
    parquet.num_rows += encoded.rowGroup.num_rows;
    parquet.pendingIndexes.push(...encoded.indexes);
  };

  const adoptOldest = async (): Promise<void> => {
    const oldest = inFlight.shift();
    if (oldest === undefined) return;
    const encoded = await oldest;
    // The worker's refusal, raised here with its code (see RefusedRowGroup).
    if ("refused" in encoded) throw new EtlError(encoded.refused.code, encoded.refused.message);
    adopt(encoded);
  };

  const writeRowGroup = async (): Promise<void> => {
    if (buffers.rows > 0) {
      const sizeHint = buffers.bytes;
      adopt(encodeRowGroup({ ...file, values: buffers.take(), sizeHint }));
    }
    if (lineRows === 0 || encodeInWorker === undefined) return;
    while (inFlight.length >= ROW_GROUPS_IN_FLIGHT) await adoptOldest();
    // One buffer of its own, so moving it to the worker takes nothing from this thread's other bytes.
    const joined = new Uint8Array(lineBytes);
    let at = 0;
    for (const part of lines) {
      joined.set(part, at);
      at += part.length;
    }
    const task: LinesTask = { ...file, lines: joined, rows: lineRows };
    lines = [];
    lineRows = 0;
    lineBytes = 0;
    const encoded = encodeInWorker(task, [joined.buffer]);
    // A slice that fails drops its files without waiting; the row group's failure is not news then.
    encoded.catch(() => undefined);
    inFlight.push(encoded);
  };

  const appendRows = async ({ rows }: RecordBatch): Promise<void> => {
    let start = 0;
    while (start < rows.length) {
      const end = Math.min(rows.length, start + rowGroupRows - buffers.rows);
      buffers.append(rows, start, end);
      start = end;
      if (buffers.rows >= rowGroupRows || buffers.bytes >= rowGroupBytes) await writeRowGroup();
    }
  };

  const appendLines = async (batch: RecordBatch): Promise<void> => {
    let bytes: Uint8Array = encodeLines(batch, lineReplaced);
    let rows = batch.rows.length;
    while (rows > 0) {
      const room = rowGroupRows - lineRows;
      const cut = rows > room ? endOfLine(bytes, room) : bytes.length;
      const taken = Math.min(rows, room);
      lines.push(bytes.subarray(0, cut));
      lineRows += taken;
      lineBytes += cut;
      bytes = bytes.subarray(cut);
      rows -= taken;
      if (lineRows >= rowGroupRows || lineBytes >= rowGroupLineBytes) await writeRowGroup();
    }
  };

  return {
    async encode(batch: RecordBatch) {
      if (batch.rows.length === 0) return bytes.take();
      inWorker ??= encodeInWorker !== undefined && batch.json !== undefined;
      await (inWorker ? appendLines(batch) : appendRows(batch));
      return bytes.take();
    },
    async finish() {
      await writeRowGroup();
      while (inFlight.length > 0) await adoptOldest();
      await parquet.finish();
      return bytes.take();
    },
    // Rows in this thread are counted by their buffers; lines for the worker when they were made.
    replacedSurrogates: () => buffers.replaced.count + lineReplaced.count,
  };
}

/** Each file's bytes at once: a Parquet file's footer, at its end, says where its row groups are. */
async function* wholeFiles(files: AsyncIterable<AsyncIterable<Uint8Array>>): AsyncGenerator<Uint8Array> {
  for await (const file of files) {
    const chunks: Uint8Array[] = [];
    for await (const chunk of file) chunks.push(chunk);
    yield Buffer.concat(chunks);
  }
}

/** The offset just past the `count`-th line of `bytes`. */
function endOfLine(bytes: Uint8Array, count: number): number {
  let at = -1;
  for (let line = 0; line < count; line++) at = bytes.indexOf(0x0a, at + 1);
  return at + 1;
}
