import { describe, expect, it } from "vitest";
import { changeMappings, changeRecord } from "./field-changes.js";

const fields = [
  { name: "job.elapsed", type: "float" },
  { name: "job.name", type: "keyword" },
  { name: "job.name.text", type: "text" },
  { name: "job.state", type: "keyword" },
];

describe("field changes", () => {
  it("add, remove (with companions) and retype fields in the mappings, sorted by name", () => {
    expect(
      changeMappings(fields, {
        add: { "job.priority": "integer" },
        remove: ["job.name"],
        retype: { "job.elapsed": "keyword" },
      }),
    ).toEqual([
      { name: "job.elapsed", type: "keyword" },
      { name: "job.priority", type: "integer" },
      { name: "job.state", type: "keyword" },
    ]);
    expect(changeMappings([...fields].reverse(), undefined)).toEqual(fields);
  });

  it("change every record the same way, deterministically", () => {
    const record = () => ({
      job: { elapsed: 12.5, name: "a", state: "DONE" },
      "@timestamp": "2026-03-01T00:00:00.000Z",
    });
    const changes = {
      add: { "job.priority": "integer", "cost.total": "float" },
      remove: ["job.name"],
      retype: { "job.elapsed": "keyword" },
    } as const;
    const changed = changeRecord(record(), changes, "id-1", Date.parse("2026-03-01T00:00:00Z"));
    expect(changed).toMatchObject({ job: { elapsed: "12.5", state: "DONE" } });
    expect(changed["job"]).not.toHaveProperty("name");
    expect(Number.isInteger((changed["job"] as Record<string, unknown>)["priority"])).toBe(true);
    expect(typeof (changed["cost"] as Record<string, unknown>)["total"]).toBe("number");
    expect(changeRecord(record(), changes, "id-1", Date.parse("2026-03-01T00:00:00Z"))).toEqual(changed);
    expect(changeRecord(record(), changes, "id-2", Date.parse("2026-03-01T00:00:00Z"))).not.toEqual(changed);
  });

  it("retype a number field from text: numbers parse, other text gets a seeded number; nulls stay null", () => {
    const changed = changeRecord(
      { a: "17.9", b: "n/a", c: null },
      { retype: { a: "long", b: "long", c: "long" } },
      "x",
      0,
    );
    expect(changed["a"]).toBe(17);
    expect(Number.isInteger(changed["b"])).toBe(true);
    expect(changed["c"]).toBeNull();
  });

  it("list raw mapping entries as they are: a field twice with two types, an unknown type", () => {
    expect(
      changeMappings(fields.slice(0, 1), {
        mappings: [
          { name: "job.elapsed", type: "keyword" },
          { name: "a", type: "constructor" },
        ],
      }),
    ).toEqual([
      { name: "a", type: "constructor" },
      { name: "job.elapsed", type: "float" },
      { name: "job.elapsed", type: "keyword" },
    ]);
  });

  it("add a field named __proto__ or @_id as an own field of every record", () => {
    const changes = {
      add: JSON.parse('{"__proto__":"keyword","@_id":"keyword","x.__proto__":"long"}') as Record<
        string,
        "keyword"
      >,
    };
    const record = changeRecord({ x: {} }, changes, "id-1", 0);
    expect(Object.getOwnPropertyDescriptor(record, "__proto__")?.value).toMatch(/^__proto__-\d+$/);
    expect(record["@_id"]).toMatch(/^@_id-\d+$/);
    expect(typeof Object.getOwnPropertyDescriptor(record.x as object, "__proto__")?.value).toBe("number");
    expect(JSON.parse(JSON.stringify(record))).toHaveProperty(["__proto__"]);
  });
});
