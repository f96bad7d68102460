import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { countRows } from "./count-rows.js";
import { parquetFormat } from "./parquet.js";

async function* chunked(bytes: Uint8Array, size: number): AsyncIterable<Uint8Array> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

describe("countRows", () => {
  it("counts NDJSON lines, plain and gzipped, and a cut last line", async () => {
    const text = Buffer.from('{"a":1}\n{"a":2}\n{"a":3}\n');
    expect(await countRows(chunked(text, 5), { format: "ndjson" })).toBe(3);
    expect(await countRows(chunked(gzipSync(text), 7), { format: "ndjson", gzip: true })).toBe(3);
    expect(await countRows(chunked(text.subarray(0, 12), 5), { format: "ndjson" })).toBe(2);
  });

  it("counts Parquet rows from the footer while streaming, and refuses a truncated file", async () => {
    const encoder = parquetFormat.createEncoder([{ name: "n", type: "int32" }], { rowGroupRows: 1000 });
    const rows = Array.from({ length: 4321 }, (_, n) => ({ n }));
    const bytes = Buffer.concat([...(await encoder.encode(rows)), ...(await encoder.finish())]);
    expect(await countRows(chunked(bytes, 1000), { format: "parquet", maxFooterBytes: 4096 })).toBe(4321);
    await expect(
      countRows(chunked(bytes.subarray(0, bytes.length - 3), 1000), { format: "parquet" }),
    ).rejects.toThrow(/truncated or corrupt/);
  });
});
