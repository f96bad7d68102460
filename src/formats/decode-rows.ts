// Reads the rows of a file this exporter wrote, for merging a batch export's partition files into the
// slice's file: NDJSON lines, or a Parquet file's rows with JSON columns parsed back into values.
import { createGunzip } from "node:zlib";
import { Readable } from "node:stream";
import { parquetReadObjects } from "hyparquet";
import { NdjsonLines } from "../core/ndjson-lines.js";
import type { Batch, Column, Row, RowJson } from "../core/contracts.js";

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
        const value = Object.hasOwn(row, name) ? row[name] : undefined;
        // defineProperty: a column named `__proto__` must stay a field, not become the prototype.
        if (typeof value === "string")
          Object.defineProperty(row, name, {
            value: JSON.parse(value) as unknown,
            writable: true,
            enumerable: true,
            configurable: true,
          });
      }
    yield batch;
  }
}

/**
 * Lines parsed into rows, each batch carrying the lines' own bytes as the rows' JSON (see Batch), so
 * an NDJSON file written from them copies the bytes instead of serialising every row again.
 */
async function* ndjsonBatches(chunks: AsyncIterable<Uint8Array>, size: number): AsyncGenerator<Batch> {
  // The exporter's own files: their lines were bounded when the records came in.
  const lines = new NdjsonLines(Number.MAX_SAFE_INTEGER, () => new Error("unreachable"));
  let rows: Row[] = [];
  let json: RowJson[] = [];
  const take = (line: Uint8Array): void => {
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
    for (const line of lines.pushBytes(chunk)) {
      take(line);
      if (rows.length >= size) yield flush();
    }
  }
  const last = lines.endBytes();
  if (last !== undefined) take(last);
  if (rows.length > 0) yield flush();
}
