import { describe, expect, it } from "vitest";
import { unknownFields } from "./report-unknown-fields.js";

describe("unknownFields", () => {
  it("treats __proto__, constructor and toString as field names like any other", () => {
    const names = new Set(["_id", "constructor", "meta.__proto__"]);
    const row = JSON.parse(
      '{"_id":"1","constructor":"c","__proto__":{"x":1},"toString":"t","meta":{"__proto__":1,"hasOwnProperty":2}}',
    ) as Record<string, unknown>;
    expect(unknownFields(row, names)).toEqual(["__proto__", "toString", "meta.hasOwnProperty"]);
  });

  it("reports a field under a name that is a column's prefix but not a column", () => {
    expect(unknownFields({ atr: { domain_name: "a", client: "c" } }, new Set(["atr.domain_name"]))).toEqual([
      "atr.client",
    ]);
  });
});
