import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { ndjsonFormat } from "./ndjson.js";
import { parquetFormat } from "./parquet/parquet-format.js";
import { countParquetRows } from "./parquet/footer.js";

async function* chunked(bytes: Uint8Array, size: number): AsyncIterable<Uint8Array> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

describe("a format counts the rows of its files", () => {
  it("counts NDJSON lines, plain and gzipped, and a cut last line", async () => {
    const text = Buffer.from('{"a":1}\n{"a":2}\n{"a":3}\n');
    expect(await ndjsonFormat.countRows(chunked(text, 5), {})).toBe(3);
    expect(await ndjsonFormat.countRows(chunked(gzipSync(text), 7), { gzip: true })).toBe(3);
    expect(await ndjsonFormat.countRows(chunked(text.subarray(0, 12), 5), {})).toBe(2);
  });

  it("counts Parquet rows from the footer while streaming, and refuses a truncated file", async () => {
    const encoder = parquetFormat.createEncoder([{ name: "n", type: "int32" }], { rowGroupRows: 1000 });
    const rows = Array.from({ length: 4321 }, (_, n) => ({ n }));
    const bytes = Buffer.concat([
      ...(await encoder.encode({ kind: "rows", rows })),
      ...(await encoder.finish()),
    ]);
    expect(await countParquetRows(chunked(bytes, 1000), 4096)).toBe(4321);
    expect(await parquetFormat.countRows(chunked(bytes, 1000), {})).toBe(4321);
    await expect(
      parquetFormat.countRows(chunked(bytes.subarray(0, bytes.length - 3), 1000), {}),
    ).rejects.toThrow(/truncated or corrupt/);
  });

  it("reads its settings from a parsed sink", () => {
    expect(ndjsonFormat.settings({ format: "ndjson", gzip: true })).toEqual({ gzip: true });
    expect(
      parquetFormat.settings({ format: "parquet", compression: "uncompressed", row_group_rows: 2000 }),
    ).toEqual({ compression: "uncompressed", rowGroupRows: 2000, pageVersion: 1 });
  });
});
