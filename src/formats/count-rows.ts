// Counts the rows of a written file from its bytes, for `verify`: NDJSON lines, or the Parquet footer.
import { createGunzip } from "node:zlib";
import { Readable } from "node:stream";
import { parquetMetadata } from "hyparquet";
import { SinkError } from "../errors.js";

export interface CountRowsOptions {
  format: "parquet" | "ndjson";
  gzip?: boolean;
  /** Bytes of the file end kept to read the Parquet footer; larger footers are an error. */
  maxFooterBytes?: number;
}

/** Streams the file once; memory holds at most the Parquet footer, never the file. */
export async function countRows(
  chunks: AsyncIterable<Uint8Array>,
  options: CountRowsOptions,
): Promise<number> {
  if (options.format === "parquet")
    return countParquetRows(chunks, options.maxFooterBytes ?? 64 * 1024 * 1024);
  const lines = options.gzip === true ? Readable.from(chunks).pipe(createGunzip()) : chunks;
  return countLines(lines);
}

async function countLines(chunks: AsyncIterable<Uint8Array>): Promise<number> {
  let count = 0;
  let last = 0x0a;
  for await (const chunk of chunks) {
    for (let i = chunk.indexOf(0x0a); i !== -1; i = chunk.indexOf(0x0a, i + 1)) count++;
    if (chunk.length > 0) last = chunk[chunk.length - 1] ?? last;
  }
  // A file cut mid-line still holds that (broken) record; counting it lets verify see a mismatch.
  return last === 0x0a ? count : count + 1;
}

async function countParquetRows(chunks: AsyncIterable<Uint8Array>, maxFooterBytes: number): Promise<number> {
  let tail: Uint8Array[] = [];
  let tailBytes = 0;
  let head: Uint8Array | undefined;
  for await (const chunk of chunks) {
    head ??= chunk.subarray(0, 4);
    tail.push(chunk);
    tailBytes += chunk.length;
    while (tail.length > 1 && tailBytes - (tail[0]?.length ?? 0) >= maxFooterBytes) {
      tailBytes -= tail[0]?.length ?? 0;
      tail = tail.slice(1);
    }
  }
  const bytes = Buffer.concat(tail);
  if (head === undefined || Buffer.from(head).toString("latin1") !== "PAR1") {
    throw new SinkError("not a Parquet file: it does not start with PAR1", { code: "SINK_CORRUPT_FILE" });
  }
  try {
    return Number(parquetMetadata(bytes).num_rows);
  } catch (error) {
    throw new SinkError("the Parquet footer cannot be read; the file is truncated or corrupt", {
      code: "SINK_CORRUPT_FILE",
      cause: error,
    });
  }
}
