// Reads the rows of a file this exporter wrote, for merging a batch export's partition files into the
// slice's file: NDJSON lines, or a Parquet file's rows with JSON columns parsed back into values.
import { createGunzip } from "node:zlib";
import { Readable } from "node:stream";
import { parquetReadObjects } from "hyparquet";
import type { Batch, Column, Row, RowJson } from "../pipeline/contracts.js";

export interface DecodeRowsOptions {
  format: "parquet" | "ndjson";
  gzip?: boolean;
  /** The file's columns: a json column's text is parsed, so encoding it again gives the same text. */
  columns: readonly Column[];
  /** Rows per batch yielded. */
  batchRows?: number;
}

/**
 * NDJSON streams line by line; Parquet is read whole (the files merged are one partition's each).
 * @example for await (const batch of decodeRows(await store.openRead(path), { format: "ndjson", columns })) ...
 */
export async function* decodeRows(
  chunks: AsyncIterable<Uint8Array>,
  options: DecodeRowsOptions,
): AsyncGenerator<Batch> {
  const size = options.batchRows ?? 1000;
  if (options.format === "ndjson") {
    const bytes = options.gzip === true ? Readable.from(chunks).pipe(createGunzip()) : chunks;
    yield* ndjsonBatches(bytes as AsyncIterable<Uint8Array>, size);
    return;
  }
  const parts: Uint8Array[] = [];
  for await (const chunk of chunks) parts.push(chunk);
  const bytes = Buffer.concat(parts);
  const rows = (await parquetReadObjects({
    file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength),
  })) as Record<string, unknown>[];
  const json = options.columns.filter((column) => column.type === "json").map((column) => column.name);
  for (let start = 0; start < rows.length; start += size) {
    const batch = rows.slice(start, start + size);
    for (const row of batch)
      for (const name of json) {
        const value = row[name];
        if (typeof value === "string") row[name] = JSON.parse(value) as unknown;
      }
    yield batch;
  }
}

/**
 * Lines parsed into rows, each batch carrying the lines' own bytes as the rows' JSON (see Batch), so
 * an NDJSON file written from them copies the bytes instead of serialising every row again.
 */
async function* ndjsonBatches(chunks: AsyncIterable<Uint8Array>, size: number): AsyncGenerator<Batch> {
  let rows: Row[] = [];
  let json: RowJson[] = [];
  let rest: Uint8Array[] = [];
  const take = (line: Uint8Array): void => {
    if (line.length === 0) return;
    rows.push(JSON.parse(Buffer.from(line.buffer, line.byteOffset, line.byteLength).toString("utf8")) as Row);
    json.push({ head: "", tail: line });
  };
  const flush = (): Batch => {
    const batch = Object.assign(rows, { json });
    rows = [];
    json = [];
    return batch;
  };
  for await (const chunk of chunks) {
    let start = 0;
    for (let newline = chunk.indexOf(0x0a); newline !== -1; newline = chunk.indexOf(0x0a, start)) {
      const end = chunk.subarray(start, newline);
      // A line cut by the chunk is joined once, when it ends: linear however long it is.
      take(rest.length === 0 ? end : Buffer.concat([...rest, end]));
      rest = [];
      start = newline + 1;
      if (rows.length >= size) yield flush();
    }
    if (start < chunk.length) rest.push(chunk.subarray(start));
  }
  take(Buffer.concat(rest));
  if (rows.length > 0) yield flush();
}
