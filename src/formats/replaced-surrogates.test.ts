// A lone surrogate is written as U+FFFD, and counted: each encoder says how many it replaced in its
// file (RowEncoder.replacedSurrogates), on every path (NDJSON plain and gzip, Parquet string and json
// columns, rows and values taken from the service's bytes), and a surrogate pair is no such thing.
import { Buffer } from "node:buffer";
import { gunzipSync } from "node:zlib";
import { parquetMetadata, parquetReadObjects } from "hyparquet";
import { describe, expect, it } from "vitest";
import type { Column, RecordBatch, Row, RowEncoder } from "../core/contracts.js";
import type { ColumnsBatch, TakenRecord } from "../core/record-batch.js";
import { createTakenColumnsReader } from "../decoding/taken-columns.js";
import { ndjsonFormat } from "./ndjson.js";
import { parquetColumnCoercers } from "./parquet/coercers.js";
import { parquetFormat } from "./parquet/parquet-format.js";

const rows: Row[] = [
  { id: "a\ud800", note: "x\udc00y\ud800", extra: { deep: ["\udbff!"] } },
  { id: "pair \ud83d\ude00", note: "\ufffd is not replaced", extra: { n: 9007199254740993n } },
  { id: "plain", note: null, extra: null },
];
/** The lone surrogates of `rows`, all in its first row: one in id, two in note, one in extra. */
const LONE = 4;

async function encode(encoder: RowEncoder, batches: RecordBatch[]): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for (const batch of batches) chunks.push(...(await encoder.encode(batch)));
  chunks.push(...(await encoder.finish()));
  return Buffer.concat(chunks);
}

describe("NDJSON", () => {
  for (const gzip of [false, true])
    it(`counts each lone surrogate it writes as U+FFFD${gzip ? " (gzip)" : ""}`, async () => {
      const encoder = ndjsonFormat.createEncoder([], { gzip });
      const bytes = await encode(encoder, [
        { kind: "rows", rows },
        { kind: "rows", rows: rows.slice(0, 1) },
      ]);
      const text = (gzip ? gunzipSync(bytes) : bytes).toString("utf8");
      expect(text).not.toMatch(/\\ud[89a-f]/i);
      expect(JSON.parse(text.split("\n")[0] as string)).toEqual({
        id: "a\ufffd",
        note: "x\ufffdy\ufffd",
        extra: { deep: ["\ufffd!"] },
      });
      expect(encoder.replacedSurrogates?.()).toBe(LONE * 2);
    });
});

describe("Parquet", () => {
  const columns: Column[] = [
    { name: "id", type: "string" },
    { name: "note", type: "string" },
    { name: "extra", type: "json" },
  ];

  it("counts each lone surrogate of its string and json columns, which it writes as U+FFFD", async () => {
    const encoder = parquetFormat.createEncoder(columns, parquetFormat.settings({}));
    const bytes = await encode(encoder, [
      { kind: "rows", rows },
      { kind: "rows", rows: rows.slice(0, 1) },
    ]);
    expect(encoder.replacedSurrogates?.()).toBe(LONE * 2);
    const file = new Uint8Array(bytes).buffer;
    const read = await parquetReadObjects({ file, metadata: parquetMetadata(file) });
    expect(read[0]).toEqual({ id: "a\ufffd", note: "x\ufffdy\ufffd", extra: '{"deep":["\ufffd!"]}' });
    expect(read[1]).toEqual({
      id: "pair \ud83d\ude00",
      note: "\ufffd is not replaced",
      extra: '{"n":9007199254740993}',
    });
  });
});

describe("Parquet, values taken from the service's bytes", () => {
  const columns: Column[] = [
    { name: "id", type: "string" },
    { name: "extra", type: "json" },
  ];
  /** A chunk's worth of hits, so a row group is one whole chunk: its arrays, not a copy of them. */
  const HITS = 1000;

  function takenBatch(): ColumnsBatch {
    const reader = createTakenColumnsReader(columns, parquetColumnCoercers);
    const records: TakenRecord[] = [];
    for (let i = 0; i < HITS; i++) {
      const extra = i === 0 ? '{"deep":["\\udbff!"]}' : '{"n":1}';
      const id = i === HITS - 1 ? "last\\udc00" : `r${i}`;
      const hit = Buffer.from(
        `{"_index":"i","_id":"h${i}","_score":null,"sort":[${i}],"_source":{"id":"${id}","extra":${extra}}}`,
      );
      const read = reader.read(hit, 0, hit.length, true);
      if (read === undefined) throw new Error(`hit ${i} was not taken`);
      records.push(read.row as TakenRecord);
    }
    return { kind: "columns", records };
  }

  it("replaces a json column's lone surrogates in a copy, so each file that takes the values counts them", async () => {
    // The id of the last hit holds one too, in a string column, read from the bytes like the rest.
    const batch = takenBatch();
    const chunk = (batch.records[0] as TakenRecord).chunk;
    const before = chunk.values[1]?.[0];
    for (let file = 1; file <= 2; file++) {
      const encoder = parquetFormat.createEncoder(columns, parquetFormat.settings({}));
      const file = new Uint8Array(await encode(encoder, [batch])).buffer;
      expect(encoder.replacedSurrogates?.()).toBe(2);
      const read = await parquetReadObjects({ file, metadata: parquetMetadata(file) });
      expect(read[0]).toEqual({ id: "r0", extra: '{"deep":["\ufffd!"]}' });
      expect(read[HITS - 1]).toEqual({ id: "last\ufffd", extra: '{"n":1}' });
      expect(read).toHaveLength(HITS);
    }
    expect(chunk.values[1]?.[0]).toBe(before);
  });
});
