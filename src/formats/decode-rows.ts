// Reads the rows of a file this exporter wrote, for merging a batch export's partition files into the
// slice's file: NDJSON lines, or a Parquet file's rows with JSON columns parsed back into values.
import { createGunzip } from "node:zlib";
import { Readable } from "node:stream";
import { createInterface } from "node:readline";
import { parquetReadObjects } from "hyparquet";
import type { Batch, Column, Row } from "../pipeline/contracts.js";

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
    const text = options.gzip === true ? Readable.from(chunks).pipe(createGunzip()) : Readable.from(chunks);
    let batch: Row[] = [];
    for await (const line of createInterface({ input: text, crlfDelay: Infinity })) {
      if (line === "") continue;
      batch.push(JSON.parse(line) as Row);
      if (batch.length >= size) {
        yield batch;
        batch = [];
      }
    }
    if (batch.length > 0) yield batch;
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
