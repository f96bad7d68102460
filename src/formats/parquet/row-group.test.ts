import { ByteWriter, ParquetWriter } from "hyparquet-writer";
import { parquetMetadata, parquetReadObjects, readOffsetIndex } from "hyparquet";
import { describe, expect, it } from "vitest";
import type { Column, Row } from "../../core/contracts.js";
import type { ParquetValue } from "../coerce-value.js";
import { parquetFormat } from "./parquet-format.js";
import { parquetSchema } from "./schema.js";
import { ColumnBuffers } from "./column-buffers.js";
import { CREATED_BY, encodeRowGroup, placeRowGroup } from "./row-group.js";

const columns: Column[] = [
  { name: "_id", type: "string" },
  { name: "n", type: "int64" },
  { name: "at", type: "timestamp" },
  { name: "job.state", type: "string" },
];
const schema = parquetSchema(columns);

// Enough rows for several pages per column chunk, so page offsets and the offset index are exercised.
const rowsOf = (from: number, count: number): Row[] =>
  Array.from({ length: count }, (_, i) => ({
    _id: `id-${from + i}-${"x".repeat(40)}`,
    n: from + i,
    at: new Date(Date.UTC(2026, 10, 20) + (from + i) * 1000).toISOString(),
    job: { state: (from + i) % 3 === 0 ? "done" : "running" },
  }));

function valuesOf(rows: readonly Row[]): ParquetValue[][] {
  const buffers = new ColumnBuffers(columns);
  buffers.append({ kind: "rows", rows }, 0, rows.length);
  return buffers.take();
}

const toBytes = (chunks: Uint8Array[]): Uint8Array => new Uint8Array(Buffer.concat(chunks));

describe("a row group encoded on its own", () => {
  const groups = [rowsOf(0, 30_000), rowsOf(30_000, 12_345)];

  it("placed after the ones before it, reads back as the rows of each group in turn", async () => {
    const file = new ByteWriter();
    const assembled = new ParquetWriter({ writer: file, schema, codec: "SNAPPY", createdBy: CREATED_BY });
    const parts: Uint8Array[] = [];
    const encoded = groups.map((rows) =>
      encodeRowGroup({ columns, codec: "SNAPPY", pageVersion: 1, values: valuesOf(rows), sizeHint: 0 }),
    );
    // The first group starts after the file's 4 magic bytes; each next one where the last ended.
    let at = 4;
    for (const group of encoded) {
      placeRowGroup(group, at);
      at += group.bytes.length;
      parts.push(group.bytes);
      assembled.row_groups.push(group.rowGroup);
      assembled.num_rows += group.rowGroup.num_rows;
      assembled.pendingIndexes.push(...group.indexes);
    }
    file.offset = at;
    assembled.finish();
    const head = new Uint8Array(file.buffer, 0, 4);
    const tail = new Uint8Array(file.buffer, 4, file.index - 4);
    const bytes = toBytes([head, ...parts, tail]);
    expect(encoded[0]?.indexes.some((index) => (index.offsetIndex?.page_locations.length ?? 0) > 1)).toBe(
      true,
    );
    const read = await parquetReadObjects({ file: bytes.buffer as ArrayBuffer });
    const all = [...(groups[0] ?? []), ...(groups[1] ?? [])];
    expect(read).toHaveLength(all.length);
    expect(read.map((row) => row._id)).toEqual(all.map((row) => row._id));
    expect(read.map((row) => row.n)).toEqual(all.map((row) => BigInt(row.n as number)));
    // Read through the offset index: a page found by it starts where it says.
    const metadata = parquetMetadata(bytes.buffer as ArrayBuffer);
    const paged = metadata.row_groups[0]?.columns.find((chunk) => chunk.offset_index_offset !== undefined);
    const index = readOffsetIndex({
      view: new DataView(bytes.buffer as ArrayBuffer),
      offset: Number(paged?.offset_index_offset),
    });
    expect(index.page_locations[0]?.offset).toBe(paged?.meta_data?.data_page_offset);
  });

  it("is what the encoder writes: its row groups of 1,000 rows read back as the rows in order", async () => {
    const encoder = parquetFormat.createEncoder(columns, { rowGroupRows: 1000 });
    const chunks = [
      ...(await encoder.encode({ kind: "rows", rows: rowsOf(0, 2500) })),
      ...(await encoder.finish()),
    ];
    const read = await parquetReadObjects({ file: toBytes(chunks).buffer as ArrayBuffer });
    expect(read.map((row) => row.n)).toEqual(Array.from({ length: 2500 }, (_, i) => BigInt(i)));
  });
});
