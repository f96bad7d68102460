import { describe, expect, it } from "vitest";
import { withSourceFields } from "./output-schema.js";
import { resolveSinkSchema } from "./sink-schema.js";

const columns = withSourceFields([
  { name: "_id", type: "string" },
  { name: "@timestamp", type: "timestamp" },
  { name: "job.state", type: "string" },
]);
const policy = { new_fields: "add", type_changes: "fail" } as const;

describe("resolveSinkSchema", () => {
  it("pins the current schema on the first run and renames nested rows to flat snake_case keys", () => {
    const schema = resolveSinkSchema({
      naming: "snake_case",
      policy,
      columns,
      pinned: undefined,
      where: "sink 1",
    });
    expect(schema.encoderColumns).toEqual([
      { name: "_id", type: "string" },
      { name: "timestamp", type: "timestamp" },
      { name: "job_state", type: "string" },
    ]);
    expect(schema.conformRow?.({ _id: "1", "@timestamp": "t", job: { state: "DONE", extra: 1 } })).toEqual({
      _id: "1",
      timestamp: "t",
      job_state: "DONE",
    });
  });

  it("keeps a removed field's column (null in every row) in its pinned place", () => {
    const pinned = resolveSinkSchema({
      naming: "snake_case",
      policy,
      columns,
      pinned: undefined,
      where: "sink 1",
    });
    const now = resolveSinkSchema({
      naming: "snake_case",
      policy,
      columns: columns.filter((column) => column.name !== "@timestamp"),
      pinned: { version: 1, columns: pinned.columns },
      where: "sink 1",
      now: new Date("2026-11-20T00:00:00Z"),
    });
    // The pin records since when the field is gone (schema.keep_removed_days).
    expect(now.columns[1]?.removed_at).toBe("2026-11-20T00:00:00.000Z");
    expect(now.encoderColumns.map((column) => column.name)).toEqual(["_id", "timestamp", "job_state"]);
    expect(now.conformRow?.({ _id: "1", job: { state: "DONE" } })).toEqual({
      _id: "1",
      timestamp: null,
      job_state: "DONE",
    });
  });

  it("leaves rows alone as_is: the encoder reads dotted paths itself", () => {
    const schema = resolveSinkSchema({
      naming: "as_is",
      policy,
      columns,
      pinned: undefined,
      where: "sink 1",
    });
    expect(schema.conformRow).toBeUndefined();
    expect(schema.encoderColumns.map((column) => column.name)).toEqual(["_id", "@timestamp", "job.state"]);
  });

  it("refuses, before naming, two columns of one name, a name past max_name_chars, more than max_columns", () => {
    const collide = [...columns, { name: "job_state", type: "int64" as const, source: "job_state" }];
    expect(() =>
      resolveSinkSchema({
        naming: "snake_case",
        policy,
        columns: collide,
        pinned: undefined,
        where: "sink 1",
      }),
    ).toThrow(
      'sink 1: the service\'s fields give two columns one name: column_names: snake_case turns both "job.state" and "job_state" into "job_state"',
    );
    // A column_name_overrides entry for one of them keeps both.
    const apart = resolveSinkSchema({
      naming: "snake_case",
      overrides: new Map([["job_state", "job_state_code"]]),
      policy,
      columns: collide,
      pinned: undefined,
      where: "sink 1",
    });
    expect(apart.encoderColumns.map((column) => column.name)).toEqual([
      "_id",
      "timestamp",
      "job_state",
      "job_state_code",
    ]);
    expect(apart.conformRow?.({ _id: "1", job: { state: "DONE" }, job_state: 3 })).toEqual({
      _id: "1",
      timestamp: null,
      job_state: "DONE",
      job_state_code: 3,
    });
    const long = [...columns, { name: "x".repeat(40), type: "string" as const, source: "x" }];
    expect(() =>
      resolveSinkSchema({
        naming: "snake_case",
        policy: { ...policy, max_name_chars: 39 },
        columns: long,
        pinned: undefined,
        where: "sink 1",
      }),
    ).toThrow("has a name of 40 characters, more than schema.max_name_chars (39)");
    expect(() =>
      resolveSinkSchema({
        naming: "as_is",
        policy: { ...policy, max_columns: 2 },
        columns,
        pinned: undefined,
        where: "sink 1",
      }),
    ).toThrow("sink 1: 3 columns, more than schema.max_columns (2)");
  });

  it("refuses a column name with a control character as_is, and writes a __proto__ field as a column", () => {
    const nul = [...columns, { name: "a\u0000b", type: "string" as const, source: "a\u0000b" }];
    expect(() =>
      resolveSinkSchema({ naming: "as_is", policy, columns: nul, pinned: undefined, where: "sink 1" }),
    ).toThrow('the column name "a\\u0000b" holds a control character');
    const proto = [...columns, { name: "__proto__", type: "string" as const, source: "__proto__" }];
    const schema = resolveSinkSchema({
      naming: "snake_case",
      policy,
      columns: proto,
      pinned: undefined,
      where: "s",
    });
    const row = JSON.parse('{"_id":"1","__proto__":"kept","constructor":"too"}') as Record<string, unknown>;
    expect(schema.encoderColumns.map((column) => column.name)).toEqual([
      "_id",
      "timestamp",
      "job_state",
      "__proto",
    ]);
    expect(schema.conformRow?.(row)).toMatchObject({ _id: "1", __proto: "kept" });
    // A row without the field has none: not Object.prototype read as its value.
    expect(schema.conformRow?.({ _id: "2" })).toMatchObject({ __proto: null });
    // Under an override the column is named __proto__ itself, and stays an own field of the row.
    const named = resolveSinkSchema({
      naming: "as_is",
      overrides: new Map([["constructor", "__proto__"]]),
      policy,
      columns: [...columns, { name: "constructor", type: "string" as const, source: "constructor" }],
      pinned: undefined,
      where: "s",
    });
    const out = named.conformRow?.(row) ?? {};
    expect(Object.getOwnPropertyDescriptor(out, "__proto__")?.value).toBe("too");
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(
      Object.getOwnPropertyDescriptor(named.conformRow?.({ _id: "3" }) ?? {}, "__proto__")?.value,
    ).toBeNull();
  });
});
