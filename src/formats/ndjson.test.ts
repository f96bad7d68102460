import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import type { Row } from "../core/contracts.js";
import { ndjsonFormat } from "./ndjson.js";

async function encodeAll(batches: readonly (readonly Row[])[], gzip: boolean): Promise<Buffer> {
  const encoder = ndjsonFormat.createEncoder([], { gzip });
  const chunks: Uint8Array[] = [];
  for (const rows of batches) chunks.push(...(await encoder.encode({ kind: "rows", rows })));
  chunks.push(...(await encoder.finish()));
  return Buffer.concat(chunks);
}

const rows: Row[] = [
  { id: "a", nested: { deep: [1, 2] }, text: 'quote " and\nnewline', emoji: "\u{1F600}" },
  { id: "b", value: null, big: 12345678901234567890n },
  {},
];

function parseLines(text: string): unknown[] {
  expect(text.endsWith("\n")).toBe(true);
  return text
    .slice(0, -1)
    .split("\n")
    .map((line) => JSON.parse(line) as unknown);
}

describe("ndjson format", () => {
  it("writes one record per line, whole and in order", async () => {
    const bytes = await encodeAll([rows.slice(0, 1), [], rows.slice(1)], false);
    expect(parseLines(bytes.toString("utf8"))).toEqual([
      rows[0],
      { id: "b", value: null, big: Number("12345678901234567890") },
      {},
    ]);
    // Issue 29: a bigint (an integer past 2^53, read from the service's digits) is those digits, a
    // number to every reader, not a string of them.
    expect(bytes.toString("utf8").split("\n")[1]).toBe('{"id":"b","value":null,"big":12345678901234567890}');
  });

  it("gzips the file as one stream that gunzip reads back", async () => {
    const many: Row[] = Array.from({ length: 20_000 }, (_, i) => ({ i, text: `row ${i}` }));
    const bytes = await encodeAll([many.slice(0, 10_000), many.slice(10_000)], true);
    expect(bytes.subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
    expect(parseLines(gunzipSync(bytes).toString("utf8"))).toEqual(many);
  });

  it("writes an empty gzip file that still gunzips", async () => {
    const bytes = await encodeAll([], true);
    expect(gunzipSync(bytes).length).toBe(0);
  });

  it("names its extension after the compression", () => {
    expect(ndjsonFormat.extension({ gzip: true })).toBe("ndjson.gz");
    expect(ndjsonFormat.extension({ gzip: false })).toBe("ndjson");
  });
});
