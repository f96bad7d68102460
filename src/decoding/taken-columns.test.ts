import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Column, Row } from "../core/contracts.js";
import type { RecordBatch, TakenRecord } from "../core/record-batch.js";
import { hitAsRow } from "../kinds/source-spec.js";
import type { HitLike } from "../kinds/row-json.js";
import { ColumnBuffers } from "../formats/parquet/column-buffers.js";
import { parquetColumnCoercers } from "../formats/parquet/coercers.js";
import { createTakenColumnsReader } from "./taken-columns.js";
import { withReader } from "./hit-array.js";
import { V3_HITS } from "../api/hit-arrays.js";
import { decodeHits } from "./hit-stream.js";

const COLUMNS: Column[] = [
  { name: "_id", type: "string" },
  { name: "_index", type: "string" },
  { name: "@timestamp", type: "timestamp" },
  { name: "job.id", type: "string" },
  { name: "job.execution_time.elapsed", type: "double" },
  { name: "job.retries", type: "int64" },
  { name: "job.done", type: "boolean" },
  { name: "tags", type: "json" },
];

const hit = (id: string, source: string): string =>
  `{"_index":"jobs-atr-ec2-2026.03.01","_id":"${id}","_score":null,"_source":${source},"sort":[1,"${id}"]}`;

const HITS = [
  hit(
    "a",
    '{"@timestamp":"2026-03-01T00:00:00.000Z","job":{"id":"a","execution_time":{"elapsed":3.5},"retries":2,"done":true},"tags":["x",1]}',
  ),
  hit(
    "b",
    '{"@timestamp":"2026-03-01T00:00:01Z","job":{"id":7,"retries":"3","done":null},"extra":{"deep":1}}',
  ),
  hit("c", '{"job.id":"flat wins","job":{"id":"nested"},"@timestamp":"not a date"}'),
  hit("d", "{}"),
];

type Item = Row | TakenRecord;
const isTaken = (item: Item): item is TakenRecord => "chunk" in item && "at" in item;

/**
 * Appends items `start` to `end` as a source hands them on: each run of taken records as a columns
 * batch, each run of parsed rows as a rows batch.
 */
function append(buffers: ColumnBuffers, items: readonly Item[], start = 0, end = items.length): void {
  let from = start;
  while (from < end) {
    const taken = isTaken(items[from] as Item);
    let to = from + 1;
    while (to < end && isTaken(items[to] as Item) === taken) to++;
    const run = items.slice(from, to);
    const batch: RecordBatch = taken
      ? { kind: "columns", records: run as TakenRecord[] }
      : { kind: "rows", rows: run as Row[] };
    buffers.append(batch, 0, to - from);
    from = to;
  }
}

/** The records each hit gives: taken from its bytes when the reader can, parsed otherwise. */
function rows(reader: ReturnType<typeof createTakenColumnsReader> | undefined): Item[] {
  return HITS.map((text) => {
    const bytes = Buffer.from(text);
    const read = reader?.read(bytes, 0, bytes.length, true);
    return read === undefined ? hitAsRow(JSON.parse(text) as HitLike) : (read.row as TakenRecord);
  });
}

describe("column values taken from the hits' bytes", () => {
  it("fill the column buffers exactly as the parsed rows do, also between parsed rows", () => {
    const parsed = new ColumnBuffers(COLUMNS);
    const taken = new ColumnBuffers(COLUMNS);
    const mixed = new ColumnBuffers(COLUMNS);
    const takenRows = rows(createTakenColumnsReader(COLUMNS, parquetColumnCoercers));
    const parsedRows = rows(undefined);
    expect(takenRows.every(isTaken)).toBe(true);
    append(parsed, parsedRows);
    append(taken, takenRows);
    append(mixed, [takenRows[0], parsedRows[1], takenRows[2], parsedRows[3]] as Item[]);
    const expected = parsed.take();
    expect(expected.flat()).toContain("flat wins");
    expect(taken.take()).toStrictEqual(expected);
    expect(mixed.take()).toStrictEqual(expected);
  });

  it("are taken where each hit starts in a streamed page, whatever the chunks, as the parsed rows give them", async () => {
    const page = Buffer.from(`{"data":{"hits":[${HITS.join(",")}],"total":${HITS.length}}}`);
    const expected = new ColumnBuffers(COLUMNS);
    const parsed = rows(undefined);
    append(expected, parsed);
    const values = expected.take();
    for (const cut of [1, 5, 64, 100_000]) {
      async function* chunks(): AsyncGenerator<Uint8Array> {
        for (let at = 0; at < page.length; at += cut) yield page.subarray(at, at + cut);
      }
      const taken: Item[] = [];
      const decoded = decodeHits(
        chunks(),
        withReader(V3_HITS, createTakenColumnsReader(COLUMNS, parquetColumnCoercers)),
        "/v3/jobs/query",
      );
      for await (const batch of decoded) taken.push(...(batch.hits as Item[]));
      expect(taken.every(isTaken)).toBe(true);
      const buffers = new ColumnBuffers(COLUMNS);
      append(buffers, taken);
      expect(buffers.take()).toStrictEqual(values);
    }
  });

  it("fill the buffers as parsed rows do over long runs, gaps, chunk ends and many parts", () => {
    // 5,000 hits: chunks of 1,000, runs longer and shorter than a slice is taken for, rows dropped as
    // de-duplication drops them, and parsed rows in between; appended in batches of every size.
    const many = Array.from({ length: 20_000 }, (_, n) =>
      hit(
        `h${n}`,
        `{"@timestamp":"2026-03-01T00:00:${String(n % 60).padStart(2, "0")}Z","job":{"id":"j${n}","execution_time":{"elapsed":${n / 4}},"retries":${n % 7},"done":${n % 3 === 0}},"tags":[${n}]}`,
      ),
    );
    const reader = createTakenColumnsReader(COLUMNS, parquetColumnCoercers);
    const kept: { taken: Item; parsed: Row }[] = [];
    many.forEach((text, n) => {
      const bytes = Buffer.from(text);
      const taken = reader.read(bytes, 0, bytes.length, true)?.row as TakenRecord | undefined;
      const parsed = hitAsRow(JSON.parse(text) as HitLike);
      if (taken === undefined) throw new Error(`hit ${n} was not taken`);
      // Every 34th dropped (runs of 33: more than 256 parts), every 13th (in the second half) given parsed instead of taken.
      if (n % 34 === 17) return;
      kept.push({ taken: n > 10_000 && n % 13 === 0 ? parsed : taken, parsed });
    });
    const expected = new ColumnBuffers(COLUMNS);
    const actual = new ColumnBuffers(COLUMNS);
    const parsedRows = kept.map((row) => row.parsed);
    const takenRows = kept.map((row) => row.taken);
    append(expected, parsedRows);
    let start = 0;
    for (let size = 1; start < takenRows.length; size = (size * 3 + 1) % 1500) {
      const end = Math.min(takenRows.length, start + size);
      append(actual, takenRows, start, end);
      start = end;
    }
    expect(actual.rows).toBe(expected.rows);
    expect(actual.bytes).toBe(expected.bytes);
    expect(actual.take()).toStrictEqual(expected.take());
    expect(actual.rows).toBe(0);
    expect(actual.take().every((column) => column.length === 0)).toBe(true);
  });

  it("make the same row groups as parsed rows, for any drops, batches, parsed rows between and row group ends", () => {
    // A row group is taken wherever the property says, also in the middle of a chunk, so the runs a
    // row group keeps of the chunks' arrays start and end anywhere, and one may be a whole chunk.
    const texts = Array.from({ length: 2_600 }, (_, n) =>
      hit(
        `h${n}`,
        `{"@timestamp":"2026-03-01T00:00:${String(n % 60).padStart(2, "0")}Z","job":{"id":"j${n % 97}","retries":${n},"done":${n % 2 === 0}},"tags":[${n % 5}]}`,
      ),
    );
    const step = fc.record({
      count: fc.integer({ min: 1, max: 1_200 }),
      // Every drop-th record dropped, as de-duplication drops them: none, short runs or long ones.
      drop: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 40 }), fc.integer({ min: 41, max: 1_200 })),
      parsed: fc.boolean(),
      endsRowGroup: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 8 }), (steps) => {
        const reader = createTakenColumnsReader(COLUMNS, parquetColumnCoercers);
        const expected = new ColumnBuffers(COLUMNS);
        const actual = new ColumnBuffers(COLUMNS);
        const groups: { expected: unknown; actual: unknown }[] = [];
        let n = 0;
        for (const { count, drop, parsed, endsRowGroup } of steps) {
          const parsedRows: Row[] = [];
          const items: Item[] = [];
          for (let k = 0; k < count && n < texts.length; k++, n++) {
            const text = texts[n] as string;
            const bytes = Buffer.from(text);
            const taken = reader.read(bytes, 0, bytes.length, true)?.row as TakenRecord | undefined;
            if (taken === undefined) throw new Error(`hit ${n} was not taken`);
            if (drop > 0 && k % (drop + 1) === drop) continue;
            const row = hitAsRow(JSON.parse(text) as HitLike);
            parsedRows.push(row);
            items.push(parsed && k % 3 === 0 ? row : taken);
          }
          append(expected, parsedRows);
          append(actual, items);
          if (endsRowGroup) groups.push({ expected: expected.take(), actual: actual.take() });
        }
        groups.push({ expected: expected.take(), actual: actual.take() });
        for (const group of groups) expect(group.actual).toStrictEqual(group.expected);
      }),
      { numRuns: 40 },
    );
  });

  it("are refused by buffers of other columns rather than written as nulls", () => {
    const takenRows = rows(createTakenColumnsReader(COLUMNS, parquetColumnCoercers));
    const other = new ColumnBuffers(COLUMNS.slice(1));
    expect(() => append(other, takenRows)).toThrow(/other columns/);
  });

  it("name the fields no column holds, as the walk of the parsed row does", () => {
    const [, second] = rows(createTakenColumnsReader(COLUMNS, parquetColumnCoercers));
    if (second === undefined || !isTaken(second)) throw new Error("the second hit was not taken");
    expect(second.chunk.unknown[second.at]).toEqual(["extra"]);
  });
});
