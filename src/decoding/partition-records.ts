// Decodes a batch partition file by its content, since the spec does not say its format: gzip is
// recognised by its magic bytes, then a JSON array by its first non-space character, else NDJSON.
// Records stream out in small arrays; a partition is never held whole in memory. Decoding is linear
// in the bytes received, and bounded: a record longer than the line cap, a gzip stream inflating past
// its ratio, or more records than the status announced stop the partition with PARTITION_UNBOUNDED.
import { Readable, pipeline } from "node:stream";
import { createGunzip } from "node:zlib";
import { ApiError } from "../errors.js";
import { isJsonObject } from "../core/json-object.js";
import { JsonArraySplitter } from "./json-array-splitter.js";
import { NdjsonLines } from "./ndjson-lines.js";
import { parseJson } from "./json-exact.js";

export type PartitionRecord = Record<string, unknown>;

export interface PartitionBounds {
  /** Longest record in bytes (one line, one array element). */
  maxLineBytes: number;
  /** Decompressed bytes allowed per byte received, once past `RATIO_GRACE_BYTES`. */
  maxDecompressionRatio: number;
}

export const DEFAULT_PARTITION_BOUNDS: PartitionBounds = {
  maxLineBytes: 16 * 1024 * 1024,
  maxDecompressionRatio: 100,
};

/** Small gzip files legitimately inflate far beyond any ratio (a header, repeated keys). */
const RATIO_GRACE_BYTES = 16 * 1024 * 1024;

interface DecodeOptions {
  /** Records per yielded array. Default 1000. */
  batchSize?: number;
  /** Records the status announced; one more stops the decoding at once. */
  expected?: number | undefined;
  bounds?: PartitionBounds;
}

/** A partition broke a bound; retrying would only read the same bytes again. */
export function partitionUnbounded(message: string): ApiError {
  return new ApiError(message, { operation: "partition download", retryable: false }, "PARTITION_UNBOUNDED");
}

function parseRecord(text: string): PartitionRecord {
  // Integers beyond 2^53 as bigints of their digits: an int64 stays exact (decoding/json-exact.ts).
  const value: unknown = parseJson(text);
  if (!isJsonObject(value))
    // The partition's own bytes, as they came: the reader of the partition shows the message
    // redacted, escaped and short (api/paging/read-partition.ts).
    throw new Error(`a partition record is not a JSON object: ${text.slice(0, 200)}`);
  return value;
}

async function* withGunzipIfNeeded(
  body: AsyncIterable<Uint8Array>,
  maxRatio: number,
): AsyncGenerator<Uint8Array> {
  const iterator = body[Symbol.asyncIterator]();
  let head = new Uint8Array(0);
  let received = 0;
  // Read until two bytes are known (or the body ends) to see the gzip magic 1f 8b.
  while (head.length < 2) {
    const next = await iterator.next();
    if (next.done === true) break;
    head = Buffer.concat([head, next.value]);
  }
  async function* rest(): AsyncGenerator<Uint8Array> {
    received += head.length;
    if (head.length > 0) yield head;
    for (let next = await iterator.next(); next.done !== true; next = await iterator.next()) {
      received += next.value.length;
      yield next.value;
    }
  }
  if (head[0] !== 0x1f || head[1] !== 0x8b) {
    yield* rest();
    return;
  }
  const gunzip = pipeline(Readable.from(rest()), createGunzip(), () => undefined);
  let inflated = 0;
  try {
    for await (const chunk of gunzip) {
      if (!(chunk instanceof Uint8Array)) throw new Error("gunzip produced a non-byte chunk");
      inflated += chunk.length;
      if (inflated > RATIO_GRACE_BYTES && inflated > received * maxRatio) {
        throw partitionUnbounded(
          `a gzip batch partition inflated ${received} bytes into more than ${inflated} ` +
            `(over ${maxRatio} times; service.limits.max_decompression_ratio): refusing a decompression bomb`,
        );
      }
      yield chunk;
    }
  } finally {
    gunzip.destroy();
  }
}

/**
 * Decodes NDJSON, gzip-compressed NDJSON or a JSON array (also gzip-compressed) into record arrays of
 * at most `batchSize`. Throws on a truncated or malformed body, and ApiError PARTITION_UNBOUNDED when
 * a bound is broken.
 * @example
 * for await (const records of decodePartition(response.body, { expected: 5000 })) count += records.length;
 */
export async function* decodePartition(
  body: AsyncIterable<Uint8Array>,
  options: DecodeOptions = {},
): AsyncGenerator<PartitionRecord[]> {
  const batchSize = options.batchSize ?? 1000;
  const bounds = options.bounds ?? DEFAULT_PARTITION_BOUNDS;
  const tooLong = (): ApiError =>
    partitionUnbounded(
      `a batch partition record is longer than ${bounds.maxLineBytes} bytes (service.limits.max_line_bytes)`,
    );
  const decoder = new TextDecoder("utf-8", { fatal: true });
  const lines = new NdjsonLines(bounds.maxLineBytes, tooLong);
  let splitter: JsonArraySplitter | undefined;
  let mode: "unknown" | "array" | "lines" = "unknown";
  let count = 0;
  let out: PartitionRecord[] = [];

  const add = (text: string): void => {
    count += 1;
    if (options.expected !== undefined && count > options.expected) {
      throw partitionUnbounded(
        `a batch partition holds more records than the ${options.expected} its status announced`,
      );
    }
    out.push(parseRecord(text));
  };
  /** A line of NDJSON; a blank one is no record. */
  const addLine = (bytes: Uint8Array): void => {
    const text = decoder.decode(bytes);
    if (text.trim() !== "") add(text);
  };
  const take = (chunk: Uint8Array): void => {
    if (mode === "unknown") {
      // Leading white space (and a byte order mark) says nothing about the format: dropped.
      const first = Buffer.from(chunk)
        .toString("latin1")
        .match(/[^\s\u00ef\u00bb\u00bf]/)?.[0];
      if (first === undefined) return;
      mode = first === "[" ? "array" : "lines";
      if (mode === "array") splitter = new JsonArraySplitter(bounds.maxLineBytes, tooLong);
    }
    if (splitter !== undefined) {
      for (const element of splitter.push(decoder.decode(chunk, { stream: true }))) add(element);
      return;
    }
    for (const line of lines.push(chunk)) addLine(line);
  };

  for await (const chunk of withGunzipIfNeeded(body, bounds.maxDecompressionRatio)) {
    take(chunk);
    if (out.length >= batchSize) {
      for (let i = 0; i + batchSize <= out.length; i += batchSize) yield out.slice(i, i + batchSize);
      out = out.slice(out.length - (out.length % batchSize));
    }
  }
  if (splitter !== undefined) {
    for (const element of splitter.push(decoder.decode())) add(element);
    splitter.end();
  } else {
    const last = lines.end();
    if (last !== undefined) addLine(last);
  }
  for (let i = 0; i < out.length; i += batchSize) yield out.slice(i, i + batchSize);
}
