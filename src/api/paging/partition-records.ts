// Decodes a batch partition file by its content, since the spec does not say its format: gzip is
// recognised by its magic bytes, then a JSON array by its first non-space character, else NDJSON.
// Records stream out in small arrays; a partition is never held whole in memory.
import { Readable, pipeline } from "node:stream";
import { createGunzip } from "node:zlib";
import { JsonArraySplitter } from "./json-array-splitter.js";

export type PartitionRecord = Record<string, unknown>;

function isRecord(value: unknown): value is PartitionRecord {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function parseRecord(text: string): PartitionRecord {
  const value: unknown = JSON.parse(text);
  if (!isRecord(value)) throw new Error(`a partition record is not a JSON object: ${text.slice(0, 40)}`);
  return value;
}

async function* withGunzipIfNeeded(body: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  const iterator = body[Symbol.asyncIterator]();
  let head = new Uint8Array(0);
  // Read until two bytes are known (or the body ends) to see the gzip magic 1f 8b.
  while (head.length < 2) {
    const next = await iterator.next();
    if (next.done === true) break;
    head = Buffer.concat([head, next.value]);
  }
  async function* rest(): AsyncGenerator<Uint8Array> {
    if (head.length > 0) yield head;
    for (let next = await iterator.next(); next.done !== true; next = await iterator.next()) yield next.value;
  }
  if (head[0] !== 0x1f || head[1] !== 0x8b) {
    yield* rest();
    return;
  }
  const gunzip = pipeline(Readable.from(rest()), createGunzip(), () => undefined);
  for await (const chunk of gunzip) {
    if (!(chunk instanceof Uint8Array)) throw new Error("gunzip produced a non-byte chunk");
    yield chunk;
  }
}

/**
 * Decodes NDJSON, gzip-compressed NDJSON or a JSON array (also gzip-compressed) into record arrays of
 * at most `batchSize`. Throws on a truncated or malformed body.
 * @example
 * for await (const records of decodePartition(response.body)) count += records.length;
 */
export async function* decodePartition(
  body: AsyncIterable<Uint8Array>,
  batchSize = 1000,
): AsyncGenerator<PartitionRecord[]> {
  const decoder = new TextDecoder("utf-8", { fatal: true });
  const state: { mode: "unknown" | "array" | "lines" } = { mode: "unknown" };
  const splitter = new JsonArraySplitter();
  let carry = "";
  let out: PartitionRecord[] = [];

  const take = (text: string): void => {
    if (state.mode === "unknown") {
      const first = text.match(/\S/)?.[0];
      if (first === undefined) {
        carry += text;
        return;
      }
      state.mode = first === "[" ? "array" : "lines";
      text = carry + text;
      carry = "";
    }
    if (state.mode === "array") {
      for (const element of splitter.push(text)) out.push(parseRecord(element));
      return;
    }
    const lines = (carry + text).split("\n");
    carry = lines.pop() ?? "";
    for (const line of lines) if (line.trim() !== "") out.push(parseRecord(line));
  };

  for await (const chunk of withGunzipIfNeeded(body)) {
    take(decoder.decode(chunk, { stream: true }));
    while (out.length >= batchSize) {
      yield out.slice(0, batchSize);
      out = out.slice(batchSize);
    }
  }
  take(decoder.decode());
  if (state.mode === "array") splitter.end();
  if (state.mode === "lines" && carry.trim() !== "") out.push(parseRecord(carry));
  for (let i = 0; i < out.length; i += batchSize) yield out.slice(i, i + batchSize);
}
