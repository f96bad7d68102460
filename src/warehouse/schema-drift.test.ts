import { describe, expect, it } from "vitest";
import type { SchemaColumn } from "./output-schema.js";
import { describeChange, reconcileSchema, SchemaDriftError } from "./schema-drift.js";

const column = (name: string, type: SchemaColumn["type"], source: string | null = name): SchemaColumn => ({
  name,
  type,
  nullable: true,
  source,
});

const pinned = [column("job_id", "string", "job.id"), column("elapsed", "double"), column("state", "string")];

describe("reconcileSchema", () => {
  it("changes nothing when the schema is the pinned one", () => {
    const outcome = reconcileSchema(pinned, pinned, { new_fields: "fail", type_changes: "fail" }, "sink 1");
    expect(outcome).toEqual({ columns: pinned, changes: [], pinChanged: false });
  });

  it("appends a new field as a nullable column under add, and leaves it out under ignore", () => {
    const current = [column("priority", "int32"), ...pinned];
    const added = reconcileSchema(pinned, current, { new_fields: "add", type_changes: "fail" }, "sink 1");
    expect(added.columns.map((c) => c.name)).toEqual(["job_id", "elapsed", "state", "priority"]);
    expect(added.pinChanged).toBe(true);
    expect(added.changes.map(describeChange)).toEqual([
      'new field "priority" added as nullable int32 column',
    ]);
    const ignored = reconcileSchema(
      pinned,
      current,
      { new_fields: "ignore", type_changes: "fail" },
      "sink 1",
    );
    expect(ignored.columns).toEqual(pinned);
    expect(ignored.pinChanged).toBe(false);
    expect(ignored.changes.map(describeChange)).toEqual([
      'new field "priority" ignored (schema.new_fields: ignore)',
    ]);
  });

  it("refuses a new field under fail, naming it", () => {
    const current = [...pinned, column("priority", "int32")];
    expect(() =>
      reconcileSchema(pinned, current, { new_fields: "fail", type_changes: "fail" }, "sink 1 (./out)"),
    ).toThrow(
      'sink 1 (./out): the output schema drifted from the pinned schema: field "priority" (int32) is new; schema.new_fields: add or ignore accepts it',
    );
  });

  it("keeps a removed field's column in its place under every policy", () => {
    const current = [pinned[0] as SchemaColumn, pinned[2] as SchemaColumn];
    for (const new_fields of ["add", "ignore", "fail"] as const) {
      const outcome = reconcileSchema(pinned, current, { new_fields, type_changes: "fail" }, "sink 1");
      expect(outcome.columns).toEqual(pinned);
      expect(outcome.pinChanged).toBe(false);
      expect(outcome.changes.map(describeChange)).toEqual([
        'field "elapsed" no longer in the service\'s mappings: column kept, written as nulls',
      ]);
    }
  });

  it("refuses a type change by default, naming the field and both types", () => {
    const current = [
      pinned[0] as SchemaColumn,
      column("elapsed", "string", "job.elapsed"),
      pinned[2] as SchemaColumn,
    ];
    let error: unknown;
    try {
      reconcileSchema(pinned, current, { new_fields: "add", type_changes: "fail" }, "sink 1");
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(SchemaDriftError);
    expect((error as SchemaDriftError).code).toBe("SCHEMA_DRIFT");
    expect((error as SchemaDriftError).problems).toEqual([
      'field "job.elapsed" (column elapsed) changed type from double (pinned) to string; schema.type_changes: string writes it as text',
    ]);
  });

  it("writes a retyped field as text under string, and keeps it text afterwards", () => {
    const current = [pinned[0] as SchemaColumn, column("elapsed", "int64"), pinned[2] as SchemaColumn];
    const outcome = reconcileSchema(
      pinned,
      current,
      { new_fields: "fail", type_changes: "string" },
      "sink 1",
    );
    expect(outcome.columns[1]).toEqual(column("elapsed", "string"));
    expect(outcome.pinChanged).toBe(true);
    expect(outcome.changes.map(describeChange)).toEqual([
      'field "elapsed" changed type from double to int64: written as text',
    ]);
    // The next run compares with the new pin: text takes any type, even under fail.
    const again = reconcileSchema(
      outcome.columns,
      current,
      { new_fields: "fail", type_changes: "fail" },
      "sink 1",
    );
    expect(again.columns).toEqual(outcome.columns);
    expect(again.pinChanged).toBe(false);
  });
});
