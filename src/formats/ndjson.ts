// NDJSON: one JSON record per line, optionally gzipped through zlib's thread pool.
import { createGzip } from "node:zlib";
import type { Gzip } from "node:zlib";
import type { Batch, RowEncoder } from "../pipeline/contracts.js";
import type { Format, FormatOptions } from "./format.js";

/**
 * Records are written whole: the columns describe them for Parquet, but NDJSON keeps whatever the
 * transforms left, so nested objects stay nested.
 */
export const ndjsonFormat: Format = {
  name: "ndjson",
  extension: (options: FormatOptions) => (options.gzip === true ? "ndjson.gz" : "ndjson"),
  createEncoder: (_columns, options) => (options.gzip === true ? createGzipEncoder() : createPlainEncoder()),
};

const encoder = new TextEncoder();

/** One string per batch and one `JSON.stringify` per record: the least work per record we can do. */
export function encodeLines(batch: Batch): string {
  let text = "";
  for (const row of batch) text += stringifyRecord(row) + "\n";
  return text;
}

function stringifyRecord(row: unknown): string {
  try {
    return JSON.stringify(row) ?? "null";
  } catch {
    // BigInt (and only rarely anything else) throws; the replacer costs, so it is the fallback.
    return JSON.stringify(row, (_key, value: unknown) =>
      typeof value === "bigint" ? value.toString() : value,
    );
  }
}

function createPlainEncoder(): RowEncoder {
  return {
    encode: async (batch) => (batch.length === 0 ? [] : [encoder.encode(encodeLines(batch))]),
    finish: async () => [],
  };
}

/**
 * Streams through one gzip member for the whole file. zlib compresses on the thread pool; we wait for
 * each batch to be taken (backpressure) and hand on whatever compressed bytes have come out so far.
 */
function createGzipEncoder(): RowEncoder {
  const gzip: Gzip = createGzip();
  let output: Uint8Array[] = [];
  let failure: Error | undefined;
  gzip.on("data", (chunk: Buffer) => output.push(chunk));
  gzip.on("error", (error: Error) => {
    failure = error;
  });
  const take = (): Uint8Array[] => {
    if (failure !== undefined) throw failure;
    const chunks = output;
    output = [];
    return chunks;
  };
  return {
    async encode(batch) {
      if (batch.length > 0) {
        await new Promise<void>((resolve, reject) => {
          gzip.write(encodeLines(batch), (error) => (error ? reject(error) : resolve()));
        });
      }
      return take();
    },
    async finish() {
      await new Promise<void>((resolve, reject) => {
        gzip.once("end", resolve);
        gzip.once("error", reject);
        gzip.end();
        gzip.resume();
      });
      return take();
    },
  };
}
