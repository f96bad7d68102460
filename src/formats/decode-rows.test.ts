import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import type { RecordBatch } from "../core/contracts.js";
import { ndjsonRows } from "./decode-rows.js";
import { encodeLines } from "./ndjson.js";
import { rowsOf } from "../core/record-batch.test-support.js";

async function* chunked(bytes: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

async function collect(batches: AsyncIterable<RecordBatch>): Promise<RecordBatch[]> {
  const all: RecordBatch[] = [];
  for await (const batch of batches) all.push(batch);
  return all;
}

// Escapes and key order a second JSON.stringify would not keep: the merge must copy the lines' bytes.
const lines = [
  '{"_id":"a","msg":"caf\\u00e9","n":1.0}',
  '{"_id":"b","long":"' + "x".repeat(5000) + '"}',
  '{"_id":"c","nested":{"k":[1,2]}}',
];
const file = Buffer.from(`${lines.join("\n")}\n`);

describe("decoding an NDJSON file for a merge", () => {
  it("parses rows and keeps each line's bytes, whatever the chunks cut, so writing them again copies them", async () => {
    for (const size of [1, 7, 100, file.length]) {
      const batches = await collect(ndjsonRows(chunked(file, size), false, 2));
      expect(batches.map((batch) => rowsOf(batch).length)).toEqual([2, 1]);
      expect(batches.flatMap((batch) => rowsOf(batch)).map((row) => row._id)).toEqual(["a", "b", "c"]);
      expect(rowsOf(batches[0])[0]).toEqual({ _id: "a", msg: "café", n: 1 });
      expect(Buffer.concat(batches.map((batch) => encodeLines(batch)))).toEqual(file);
    }
  });

  it("reads gzip, and a last line without its newline", async () => {
    const gz = gzipSync(file.subarray(0, file.length - 1));
    const batches = await collect(ndjsonRows(chunked(gz, 64), true));
    expect(Buffer.concat(batches.map((batch) => encodeLines(batch)))).toEqual(file);
  });

  it("refuses a line that is not JSON", async () => {
    const bad = Buffer.from('{"_id":"a"}\n{"_id":\n');
    await expect(collect(ndjsonRows(chunked(bad, 5), false))).rejects.toThrow(SyntaxError);
  });
});
