import { describe, expect, it } from "vitest";
import { ApiError } from "../errors.js";
import { V3_HITS, v1HitArray, v2HitArray } from "../api/hit-arrays.js";
import { decodeHits, MalformedBodyError } from "./hit-stream.js";
import type { HitBatch } from "./hit-stream.js";

const hits = Array.from({ length: 23 }, (_, i) => ({
  _index: `jobs-${i % 3}`,
  _id: `id-${i}`,
  _score: null,
  _source: {
    name: `job "${i}" [x] {y}`,
    nested: { deep: [1, { a: "\\" }], hits: [] },
    text: i % 5 === 0 ? "é ü 日本 \u2028 \\u0041" : "plain",
    escaped: 'back\\slash"quote',
  },
  sort: [i, `id-${i}`],
}));

const page = (list: unknown[], count = list.length): string =>
  JSON.stringify({
    data: { hits: list, total: count, count },
    meta: {
      trace_id: "t",
      rate_limit: { daily_remaining: 9 },
      pagination: { pit_id: "p", search_after: [1, "x"] },
    },
  });

async function* chunks(text: string, size: number): AsyncGenerator<Uint8Array> {
  const bytes = Buffer.from(text);
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

async function decode(text: string, size: number, batchSize = 5) {
  const batches: HitBatch[] = [];
  const decoder = decodeHits(chunks(text, size), V3_HITS, "/v3/jobs/query", batchSize);
  for (;;) {
    const next = await decoder.next();
    if (next.done === true) return { envelope: next.value, batches };
    batches.push(next.value);
  }
}

describe("decodeHits", () => {
  for (const size of [1, 2, 7, 64, 1 << 20]) {
    it(`hands on every hit and the envelope with the hits emptied (chunks of ${size} bytes)`, async () => {
      const { envelope, batches } = await decode(page(hits), size);
      expect(batches.flatMap((b) => b.hits)).toEqual(hits);
      expect(envelope).toEqual(JSON.parse(page([], 23)));
      // Compact bytes: each `_source` is handed on exactly as JSON.stringify writes it.
      const sources = batches.flatMap((b) => b.sources).map((s) => s && Buffer.from(s).toString("utf8"));
      expect(sources).toEqual(hits.map((hit) => JSON.stringify(hit._source)));
      if (size < 1 << 20)
        for (const batch of batches) expect(batch.hits.length).toBeLessThanOrEqual(5 + size);
    });
  }

  it("finds each _source's bytes, and spaces only inside one, whatever cuts the chunks", async () => {
    const hit = (id: string, source: string): string =>
      `{"_index":"jobs","_id":"${id}","_score":null,"_source":${source},"sort":[1,"${id}"]}`;
    const sources = [
      "{}",
      '{"_source":{"_source":[]},"x":"}]\\\\"}',
      '{"a":{"b":[{"c":"d"}]},"e":[[],{}]}',
      '{"a":{"b": 1}}',
      '{"a":"tab\\t","b":[1,2]}',
    ];
    const body = `{"data":{"hits":[${sources.map((source, i) => hit(`h${i}`, source)).join(",")}],"total":5}}`;
    for (const size of [1, 3, 11, 1 << 20]) {
      const { batches } = await decode(body, size);
      const handed = batches.flatMap((b) => b.sources).map((s) => s && Buffer.from(s).toString("utf8"));
      expect(handed, `chunks of ${size}`).toEqual(sources.map((source, i) => (i === 3 ? undefined : source)));
      expect(batches.flatMap((b) => b.hits).map((h) => (h as { _source: unknown })._source)).toEqual(
        sources.map((source) => JSON.parse(source) as unknown),
      );
    }
  });

  it("bounds a batch by the batch size when the body comes at once", async () => {
    const { batches } = await decode(page(hits), 1 << 20, 23);
    expect(batches.map((b) => b.hits.length)).toEqual([23]);
  });

  it("reads pretty-printed bodies but hands on no verbatim source for them", async () => {
    const pretty = JSON.stringify(JSON.parse(page(hits)), null, 2);
    const { envelope, batches } = await decode(pretty, 13);
    expect(batches.flatMap((b) => b.hits)).toEqual(hits);
    expect(batches.flatMap((b) => b.sources).every((s) => s === undefined)).toBe(true);
    expect(envelope).toEqual(JSON.parse(page([], 23)));
  });

  it("reads an empty page and a page whose hits come after the envelope's other fields", async () => {
    expect((await decode(page([]), 3)).batches).toEqual([]);
    const reordered = `{"meta":{"x":[1,{"hits":[2]}]},"data":{"total":2,"hits":${JSON.stringify(hits.slice(0, 2))},"count":2}}`;
    const { envelope, batches } = await decode(reordered, 4);
    expect(batches.flatMap((b) => b.hits)).toEqual(hits.slice(0, 2));
    expect(envelope).toEqual({ meta: { x: [1, { hits: [2] }] }, data: { total: 2, hits: [], count: 2 } });
  });

  it("fails on a body cut short, inside a hit or after the hits", async () => {
    const text = page(hits);
    for (const cut of [text.indexOf('"_source"'), text.length - 20, text.length - 1]) {
      await expect(decode(text.slice(0, cut), 16)).rejects.toBeInstanceOf(MalformedBodyError);
    }
  });

  it("names the hit and the field that break the wire schema", async () => {
    const broken = [hits[0], { ...hits[1], _id: 7 }];
    const failure = decode(page(broken), 8);
    await expect(failure).rejects.toBeInstanceOf(ApiError);
    await expect(failure).rejects.toThrow(/data\.hits\.1\._id/);
  });

  it("reads the body only as fast as batches are taken, and lets it go when the reader stops", async () => {
    let read = 0;
    let released = false;
    async function* body(): AsyncGenerator<Uint8Array> {
      try {
        for await (const chunk of chunks(page(hits), 64)) {
          read += 1;
          yield chunk;
        }
      } finally {
        released = true;
      }
    }
    const decoder = decodeHits(body(), V3_HITS, "/v3/jobs/query", 2);
    const first = await decoder.next();
    expect(first.done).toBe(false);
    const readForOne = read;
    await decoder.return(undefined);
    expect(released).toBe(true);
    expect(read).toBe(readForOne);
    expect(readForOne).toBeLessThan(Buffer.byteLength(page(hits)) / 64);
  });
});

describe("hit array checks", () => {
  const good = { _index: "i", _id: "a", _score: null, _source: { x: 1 }, sort: [1, "a", null] };
  const variants: unknown[] = [
    good,
    { ...good, _score: 1.5 },
    { ...good, _score: undefined },
    { ...good, _score: "1" },
    { ...good, _id: 1 },
    { ...good, _index: undefined },
    { ...good, _source: [] },
    { ...good, _source: null },
    { ...good, _source: "x" },
    { ...good, sort: [{}] },
    { ...good, sort: "a" },
    { ...good, sort: undefined },
    [good],
    null,
    "hit",
  ];
  it("accept only what the wire schema accepts, and every well-formed hit", () => {
    const arrays = { v3: V3_HITS, v2: v2HitArray("logs"), v1: v1HitArray("logs") };
    for (const [operation, target] of Object.entries(arrays)) {
      for (const hit of variants) {
        if (target.accepts(hit))
          expect(target.schema.safeParse(hit).success, `${operation} ${JSON.stringify(hit)}`).toBe(true);
      }
      expect(target.accepts(good), operation).toBe(true);
    }
  });
});
