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

describe("createColumnReader, keys no object inherits", () => {
  it("gives what an own-key walk gives, for flat, nested, missing and non-object steps", () => {
    const rows: Record<string, unknown>[] = [
      { "job.id": "flat", job: { id: "nested" } },
      { job: { id: "nested" } },
      { job: { id: 0 } },
      { job: { id: null } },
      { job: ["x"] },
      { job: "text" },
      { job: null },
      {},
      { "job.id": undefined, job: { id: "hidden by the own key" } },
      Object.assign(Object.create(null) as Record<string, unknown>, { job: { id: "no prototype" } }),
    ];
    const expected = ["flat", "nested", 0, null, undefined, undefined, undefined, undefined, undefined];
    const read = createColumnReader({ name: "job.id", type: "string" });
    expect(rows.map(read)).toEqual([...expected, "no prototype"]);
    expect(createColumnReader({ name: "job", type: "json" })({ job: 1 })).toBe(1);
    expect(createColumnReader({ name: "length", type: "int64" })({ job: 1 })).toBeUndefined();
  });
});
