// Reads the rows of a file this exporter wrote, for merging a batch export's partition files into the
// slice's file: NDJSON lines, or a Parquet file's rows with JSON columns parsed back into values. Each
// format's `decodeRows` calls its own.
import { parseJson } from "../decoding/json-exact.js";
import { createGunzip } from "node:zlib";
import { Readable } from "node:stream";
import { parquetReadObjects } from "hyparquet";
import { NdjsonLines } from "../decoding/ndjson-lines.js";
import type { RecordBatch, Column, Row, RowJson } from "../core/contracts.js";

/**
 * NDJSON rows, streamed line by line.
 * @example for await (const batch of ndjsonRows(await store.openRead(path), true, 1000)) ...
 */
export async function* ndjsonRows(
  chunks: AsyncIterable<Uint8Array>,
  gzip: boolean,
  batchRows = 1000,
): AsyncGenerator<RecordBatch> {
  const bytes = (gzip ? Readable.from(chunks).pipe(createGunzip()) : chunks) as AsyncIterable<Uint8Array>;
  // The exporter's own files: their lines were bounded when the records came in.
  const lines = new NdjsonLines(Number.MAX_SAFE_INTEGER, () => new Error("unreachable"));
  let rows: Row[] = [];
  let json: RowJson[] = [];
  // Each batch carries the lines' own bytes as the rows' JSON (see RecordBatch), so an NDJSON file
  // written from them copies the bytes instead of serialising every row again.
  const take = (line: Uint8Array): void => {
    rows.push(parseJson(Buffer.from(line.buffer, line.byteOffset, line.byteLength).toString("utf8")) as Row);
    json.push({ head: "", tail: line });
  };
  const flush = (): RecordBatch => {
    const batch: RecordBatch = { kind: "rows", rows, json };
    rows = [];
    json = [];
    return batch;
  };
  for await (const chunk of bytes) {
    for (const line of lines.push(chunk)) {
      take(line);
      if (rows.length >= batchRows) yield flush();
    }
  }
  const last = lines.end();
  if (last !== undefined) take(last);
  if (rows.length > 0) yield flush();
}

/**
 * A Parquet file's rows, read whole (the files merged are one partition's each). A json column's text
 * is parsed, so encoding it again gives the same text.
 */
export async function* parquetRows(
  chunks: AsyncIterable<Uint8Array>,
  columns: readonly Column[],
  batchRows = 1000,
): AsyncGenerator<RecordBatch> {
  const bytes = await wholeBytes(chunks);
  const rows = (await parquetReadObjects({
    file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength),
  })) as Record<string, unknown>[];
  const json = columns.filter((column) => column.type === "json").map((column) => column.name);
  for (let start = 0; start < rows.length; start += batchRows) {
    const batch = rows.slice(start, start + batchRows);
    for (const row of batch)
      for (const name of json) {
        const value = Object.hasOwn(row, name) ? row[name] : undefined;
        // defineProperty: a column named `__proto__` must stay a field, not become the prototype.
        if (typeof value === "string")
          Object.defineProperty(row, name, {
            value: parseJson(value),
            writable: true,
            enumerable: true,
            configurable: true,
          });
      }
    yield { kind: "rows", rows: batch };
  }
}

/** A file's bytes at once (a Parquet file's footer, at its end, says where its row groups are). */
export async function wholeBytes(chunks: AsyncIterable<Uint8Array>): Promise<Buffer<ArrayBuffer>> {
  const parts: Uint8Array[] = [];
  for await (const chunk of chunks) parts.push(chunk);
  return Buffer.concat(parts);
}
