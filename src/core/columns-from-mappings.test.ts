import { describe, expect, it } from "vitest";
import { columnsFromMappings, mappingTypeToColumnType } from "./columns-from-mappings.js";

describe("columnsFromMappings", () => {
  it("maps the service's types", () => {
    expect(
      ["keyword", "text", "date", "float", "long", "integer", "boolean", "alias", "geo_shape"].map(
        mappingTypeToColumnType,
      ),
    ).toEqual(["string", "string", "timestamp", "double", "int64", "int32", "boolean", "string", "string"]);
  });

  it("drops multi-field companions whose parent is mapped, and keeps the rest", () => {
    expect(
      columnsFromMappings([
        { name: "job.name", type: "keyword" },
        { name: "job.name.text", type: "text" },
        { name: "message", type: "text" },
        { name: "message.keyword", type: "keyword" },
        { name: "orphan.keyword", type: "keyword" },
        { name: "@timestamp", type: "date" },
      ]),
    ).toEqual([
      { name: "job.name", type: "string" },
      { name: "message", type: "string" },
      { name: "orphan.keyword", type: "string" },
      { name: "@timestamp", type: "timestamp" },
    ]);
  });

  it("keeps a field listed twice with two types twice (the sink refuses it), once with one type", () => {
    expect(
      columnsFromMappings([
        { name: "n", type: "long" },
        { name: "n", type: "keyword" },
        { name: "m", type: "keyword" },
        { name: "m", type: "text" },
      ]),
    ).toEqual([
      { name: "n", type: "int64" },
      { name: "n", type: "string" },
      { name: "m", type: "string" },
    ]);
  });

  it("reads no JavaScript built-in for a type named constructor or __proto__", () => {
    for (const type of ["constructor", "__proto__", "toString", "hasOwnProperty"])
      expect(mappingTypeToColumnType(type)).toBe("string");
  });

  it("writes a field mapped as integer and as long as one int64 column, whichever comes first", () => {
    for (const types of [
      ["integer", "long"],
      ["long", "integer"],
    ])
      expect(columnsFromMappings(types.map((type) => ({ name: "n", type })))).toEqual([
        { name: "n", type: "int64" },
      ]);
  });
});
