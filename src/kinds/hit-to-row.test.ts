import { describe, expect, it } from "vitest";
import { hitAsRow, hitToRow, hitsToRows } from "./source-spec.js";

describe("hitToRow", () => {
  it("puts _id and _index first, then the record's fields", () => {
    expect(Object.keys(hitToRow({ _id: "a", _index: "jobs", _source: { n: 1 } }))).toEqual([
      "_id",
      "_index",
      "n",
    ]);
  });

  it("keeps the hit's own _id and _index over fields of those names in _source", () => {
    const row = hitToRow({ _id: "a", _index: "jobs", _source: { _id: "forged", _index: "other", n: 1 } });
    expect(row).toEqual({ _id: "a", _index: "jobs", n: 1 });
  });
});

describe("hitAsRow", () => {
  it("is the parsed _source itself, with the hit's _id and _index", () => {
    const source = { n: 1, job: { id: "j" } };
    const row = hitAsRow({ _id: "a", _index: "jobs", _source: source });
    expect(row).toBe(source);
    expect(row).toEqual({ _id: "a", _index: "jobs", n: 1, job: { id: "j" } });
  });

  it("keeps the hit's own _id and _index over fields of those names in _source", () => {
    const source = JSON.parse('{"_id":"forged","_index":"other","n":1}') as Record<string, unknown>;
    expect(hitAsRow({ _id: "a", _index: "jobs", _source: source })).toEqual({
      _id: "a",
      _index: "jobs",
      n: 1,
    });
  });

  it("keeps a record's __proto__ a plain own field and the row an ordinary object", () => {
    const source = JSON.parse('{"__proto__":{"polluted":true},"constructor":"c"}') as Record<string, unknown>;
    const row = hitAsRow({ _id: "a", _index: "jobs", _source: source });
    expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
    expect(Object.hasOwn(row, "__proto__")).toBe(true);
    expect(Object.getOwnPropertyDescriptor(row, "__proto__")?.value).toEqual({ polluted: true });
    expect(row.constructor).toBe("c");
    expect((row as { polluted?: unknown }).polluted).toBeUndefined();
    expect(Object.keys(row).sort()).toEqual(["__proto__", "_id", "_index", "constructor"]);
  });
});

describe("hitsToRows", () => {
  const page = (): { _id: string; _index: string; _source: Record<string, unknown> }[] => [
    { _id: "a", _index: "jobs", _source: { n: 1 } },
    { _id: "b", _index: "jobs", _source: { n: 2 } },
  ];
  const bytes = [Buffer.from('{"n":1}'), Buffer.from('{"n":2}')];

  it("with JSON wanted: new rows in JSON.stringify order, each with its spliced JSON", () => {
    const hits = page();
    const batch = hitsToRows(hits, bytes);
    expect(batch.rows[0]).not.toBe(hits[0]?._source);
    expect(batch.rows.map((row) => JSON.stringify(row))).toEqual([
      '{"_id":"a","_index":"jobs","n":1}',
      '{"_id":"b","_index":"jobs","n":2}',
    ]);
    expect(batch.json?.map((json) => json?.head)).toEqual([
      '{"_id":"a","_index":"jobs",',
      '{"_id":"b","_index":"jobs",',
    ]);
  });

  it("without: the parsed records as rows, and no JSON built", () => {
    const hits = page();
    const batch = hitsToRows(hits, bytes, false);
    expect(batch.json).toBeUndefined();
    expect(batch.rows[1]).toBe(hits[1]?._source);
    expect(batch.rows).toEqual([
      { _id: "a", _index: "jobs", n: 1 },
      { _id: "b", _index: "jobs", n: 2 },
    ]);
  });
});
