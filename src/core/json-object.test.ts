import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isJsonObject } from "./json-object.js";

describe("isJsonObject", () => {
  it("holds for what JSON parses an object into, and for nothing else JSON parses", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const parsed: unknown = JSON.parse(JSON.stringify(value));
        const isObjectText = JSON.stringify(value).startsWith("{");
        expect(isJsonObject(parsed)).toBe(isObjectText);
      }),
    );
  });

  it("refuses null and arrays, the two objects that are not JSON objects", () => {
    expect(isJsonObject(null)).toBe(false);
    expect(isJsonObject([])).toBe(false);
    expect(isJsonObject({})).toBe(true);
  });
});
