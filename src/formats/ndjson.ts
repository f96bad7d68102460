// NDJSON: one JSON record per line, optionally gzipped through zlib's thread pool.
import { Buffer } from "node:buffer";
import { Readable } from "node:stream";
import { createGunzip, createGzip } from "node:zlib";
import type { Gzip } from "node:zlib";
import { z } from "zod";
import type { RecordBatch, RowEncoder } from "../core/contracts.js";
import { recordCount } from "../core/record-batch.js";
import { EtlError } from "../errors.js";
import type { Format } from "./format.js";
import { ndjsonRows } from "./decode-rows.js";
import { stringifyJson } from "../decoding/json-exact.js";

const ndjsonOptions = {
  gzip: z.boolean().default(false).describe("Compress NDJSON with gzip (adds .gz)."),
};

interface NdjsonSettings {
  gzip?: boolean;
}

/**
 * Records are written whole: the columns describe them for Parquet, but NDJSON keeps whatever the
 * transforms left, so nested objects stay nested.
 */
export const ndjsonFormat: Format<NdjsonSettings> = {
  type: "ndjson",
  summary: "One JSON record per line, optionally gzipped; nested records stay nested.",
  options: ndjsonOptions,
  streams: true,
  columnar: false,
  // It writes each record's JSON text: spliced from the service's bytes where no stage reads fields.
  takes: { shape: "lines" },
  settings: (sink) => ({ gzip: sink.gzip === true }),
  extension: (settings) => (settings.gzip === true ? "ndjson.gz" : "ndjson"),
  contentType: (settings) => (settings.gzip === true ? "application/gzip" : "application/x-ndjson"),
  createEncoder: (_columns, settings) =>
    settings.gzip === true ? createGzipEncoder() : createPlainEncoder(),
  decodeRows: (chunks, _columns, settings, batchRows) =>
    ndjsonRows(chunks, settings.gzip === true, batchRows),
  // Lines end with a newline, so files follow each other as they are; gzip files are members, and a
  // gzip stream is a series of members (RFC 1952, 2.2).
  join: async function* (files) {
    for await (const file of files) yield* file;
  },
  countRows: (chunks, settings) =>
    countLines(settings.gzip === true ? Readable.from(chunks).pipe(createGunzip()) : chunks),
  table: (settings) => ({
    records: "json-lines",
    gzip: settings.gzip === true,
    dialects: {
      duckdb: "read_json_objects",
      athena: "ROW FORMAT SERDE 'org.openx.data.jsonserde.JsonSerDe'",
      bigquery: "NEWLINE_DELIMITED_JSON",
    },
  }),
};

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

/**
 * One buffer per batch. A record whose JSON the source already has (spliced from the service's bytes,
 * see RecordBatch) is copied as bytes; any other costs one `JSON.stringify`. Writing straight into bytes
 * skips building a string of the batch and encoding it again (a third of the encoding cost). Every
 * line is one readers take: a bigint as its digits, a lone surrogate as U+FFFD (DuckDB and jq refuse
 * the `\ud800` escape JSON.stringify writes), counted in `replaced`; spliced JSON holds none (row-json.ts).
 */
export function encodeLines(batch: RecordBatch, replaced?: { count: number }): Buffer {
  if (batch.kind === "columns")
    throw new EtlError("INTERNAL", "an NDJSON file was handed column values; it takes rows or lines");
  // A lines batch is all spliced JSON; a rows batch has a row for each entry its JSON lacks.
  const rows = batch.kind === "rows" ? batch.rows : undefined;
  const json = batch.kind === "rows" ? batch.json : batch.lines;
  const count = recordCount(batch);
  const texts: (string | undefined)[] = new Array<string | undefined>(count);
  let bound = 0;
  for (let index = 0; index < count; index++) {
    const spliced = json?.[index];
    if (spliced !== undefined) bound += spliced.head.length * 3 + spliced.tail.length + 1;
    else {
      const text = stringifyJson(rows?.[index], replaced) ?? "null";
      texts[index] = text;
      bound += text.length * 3 + 1;
    }
  }
  const out = Buffer.allocUnsafe(bound);
  let at = 0;
  for (let index = 0; index < count; index++) {
    const spliced = json?.[index];
    if (spliced !== undefined) {
      at += out.write(spliced.head, at);
      out.set(spliced.tail, at);
      at += spliced.tail.length;
    } else at += out.write(texts[index] as string, at);
    out[at++] = 0x0a;
  }
  return out.subarray(0, at);
}

function createPlainEncoder(): RowEncoder {
  const replaced = { count: 0 };
  return {
    encode: async (batch) => (recordCount(batch) === 0 ? [] : [encodeLines(batch, replaced)]),
    finish: async () => [],
    replacedSurrogates: () => replaced.count,
  };
}

/**
 * Streams through one gzip member for the whole file. zlib compresses on the thread pool; we wait for
 * each batch to be taken (backpressure) and hand on whatever compressed bytes have come out so far.
 */
function createGzipEncoder(): RowEncoder {
  const gzip: Gzip = createGzip();
  const replaced = { count: 0 };
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
      if (recordCount(batch) > 0) {
        await new Promise<void>((resolve, reject) => {
          gzip.write(encodeLines(batch, replaced), (error) => (error ? reject(error) : resolve()));
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
    replacedSurrogates: () => replaced.count,
  };
}
