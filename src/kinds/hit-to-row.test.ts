import { describe, expect, it } from "vitest";
import { hitToRow } from "./source-spec.js";

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
