import { describe, expect, it } from "vitest";
import { createColumnReader } from "./column-value.js";

describe("createColumnReader", () => {
  it("reads a key, else a dotted path through nested objects", () => {
    expect(createColumnReader({ name: "job.id", type: "string" })({ "job.id": "flat" })).toBe("flat");
    expect(createColumnReader({ name: "job.id", type: "string" })({ job: { id: "nested" } })).toBe("nested");
  });

  it("reads only a row's own fields: constructor, __proto__ and toString are missing, not built-ins", () => {
    const row = { job: { id: "1" } };
    for (const name of [
      "constructor",
      "__proto__",
      "toString",
      "job.constructor",
      "job.__proto__",
      "__proto__.x",
    ])
      expect(createColumnReader({ name, type: "string" })(row), name).toBeUndefined();
    const carried = JSON.parse('{"__proto__":"kept","job":{"constructor":"also"}}') as Record<
      string,
      unknown
    >;
    expect(createColumnReader({ name: "__proto__", type: "string" })(carried)).toBe("kept");
    expect(createColumnReader({ name: "job.constructor", type: "string" })(carried)).toBe("also");
  });
});
