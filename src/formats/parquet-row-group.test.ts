import { ByteWriter, ParquetWriter } from "hyparquet-writer";
import { parquetMetadata, parquetReadObjects, readOffsetIndex } from "hyparquet";
import { describe, expect, it } from "vitest";
import type { Column, Row } from "../core/contracts.js";
import type { ParquetValue } from "./coerce-value.js";
import { encodeLines } from "./ndjson.js";
import { parquetFormat } from "./parquet.js";
import { parquetSchema } from "./parquet-schema.js";
import { ColumnBuffers } from "./parquet-column-buffers.js";
import { CREATED_BY, encodeRowGroup, placeRowGroup } from "./parquet-row-group.js";
import type { EncodedRowGroup } from "./parquet-row-group.js";
import { encodeLinesInWorker } from "./parquet-row-group-worker.js";

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
  buffers.append(rows, 0, rows.length);
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

  it("in the worker, from NDJSON lines, reads back as the rows it was given", async () => {
    const rows = rowsOf(0, 2500);
    const lines = encodeLines({ rows });
    const result = encodeLinesInWorker({
      codec: "SNAPPY",
      pageVersion: 1,
      columns,
      lines,
      rows: rows.length,
    });
    const encoded = Object.getOwnPropertySymbols(result)
      .map((symbol) => (result as Record<symbol, unknown>)[symbol])
      .find(
        (value): value is EncodedRowGroup =>
          typeof value === "object" && value !== null && "rowGroup" in value,
      );
    expect(encoded?.rowGroup.num_rows).toBe(2500n);

    const file = new ByteWriter();
    const writer = new ParquetWriter({ writer: file, schema, codec: "SNAPPY", createdBy: CREATED_BY });
    const group = placeRowGroup(encoded as EncodedRowGroup, 4);
    writer.row_groups.push(group.rowGroup);
    writer.num_rows = group.rowGroup.num_rows;
    writer.pendingIndexes.push(...group.indexes);
    file.offset += group.bytes.length;
    writer.finish();
    const bytes = toBytes([
      new Uint8Array(file.buffer, 0, 4),
      group.bytes,
      new Uint8Array(file.buffer, 4, file.index - 4),
    ]);
    const read = await parquetReadObjects({ file: bytes.buffer as ArrayBuffer });
    expect(read).toHaveLength(2500);
    expect(read[7]).toEqual({
      _id: rows[7]?._id,
      n: 7n,
      at: new Date(rows[7]?.at as string),
      "job.state": "running",
    });
  });

  it("in the worker, refuses lines that do not hold the records announced", () => {
    const lines = encodeLines({ rows: rowsOf(0, 10) });
    expect(() => encodeLinesInWorker({ codec: "SNAPPY", pageVersion: 1, columns, lines, rows: 11 })).toThrow(
      /11 records arrived with 10 lines/,
    );
  });

  it("is what the encoder writes in the thread too: the same rows with or without a pool", async () => {
    const encoder = parquetFormat.createEncoder(columns, { rowGroupRows: 1000 }, {});
    const chunks = [...(await encoder.encode({ rows: rowsOf(0, 2500) })), ...(await encoder.finish())];
    const read = await parquetReadObjects({ file: toBytes(chunks).buffer as ArrayBuffer });
    expect(read.map((row) => row.n)).toEqual(Array.from({ length: 2500 }, (_, i) => BigInt(i)));
  });
});
