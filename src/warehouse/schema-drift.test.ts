import { describe, expect, it } from "vitest";
import type { SchemaColumn } from "./output-schema.js";
import {
  describeChange,
  driftCounts,
  driftLines,
  reconcileSchema,
  SchemaDriftError,
  summarizeDrift,
} from "./schema-drift.js";

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
    expect(outcome).toEqual({ columns: pinned, changes: [] });
  });

  it("appends a new field as a nullable column under add, and leaves it out under ignore", () => {
    const current = [column("priority", "int32"), ...pinned];
    const added = reconcileSchema(pinned, current, { new_fields: "add", type_changes: "fail" }, "sink 1");
    expect(added.columns.map((c) => c.name)).toEqual(["job_id", "elapsed", "state", "priority"]);
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

  it("keeps a removed field's column in its place under every policy, marking when it went", () => {
    const current = [pinned[0] as SchemaColumn, pinned[2] as SchemaColumn];
    const now = new Date("2026-11-20T00:00:00.000Z");
    for (const new_fields of ["add", "ignore", "fail"] as const) {
      const outcome = reconcileSchema(pinned, current, { new_fields, type_changes: "fail" }, "sink 1", now);
      const marked = { ...(pinned[1] as SchemaColumn), removed_at: "2026-11-20T00:00:00.000Z" };
      expect(outcome.columns).toEqual([pinned[0], marked, pinned[2]]);
      // The mark is new, and pinned, so the next runs count from this one.
      expect(outcome.changes.map(describeChange)).toEqual([
        'field "elapsed" no longer in the service\'s mappings since 2026-11-20T00:00:00.000Z: column kept, written as nulls (schema.keep_removed_days)',
      ]);
      const later = reconcileSchema(outcome.columns, current, { new_fields, type_changes: "fail" }, "sink 1");
      expect(later.columns).toEqual(outcome.columns);
    }
  });

  it("drops a removed field's column keep_removed_days after the run that first missed it", () => {
    const current = [pinned[0] as SchemaColumn, pinned[2] as SchemaColumn];
    const marked = [
      pinned[0],
      { ...(pinned[1] as SchemaColumn), removed_at: "2026-11-01T00:00:00.000Z" },
      pinned[2],
    ] as SchemaColumn[];
    const policy = { new_fields: "add", type_changes: "fail", keep_removed_days: 7 } as const;
    const kept = reconcileSchema(marked, current, policy, "sink 1", new Date("2026-11-07T23:59:59Z"));
    expect(kept.columns).toEqual(marked);
    const dropped = reconcileSchema(marked, current, policy, "sink 1", new Date("2026-11-08T00:00:00Z"));
    expect(dropped.columns).toEqual([pinned[0], pinned[2]]);
    expect(dropped.changes.map(describeChange)).toEqual([
      'field "elapsed" gone from the service\'s mappings since 2026-11-01T00:00:00.000Z, longer than schema.keep_removed_days: column dropped',
    ]);
    // keep_removed_days: 0 drops at once; a field that comes back loses its mark.
    expect(reconcileSchema(pinned, current, { ...policy, keep_removed_days: 0 }, "s").columns).toHaveLength(
      2,
    );
    const back = reconcileSchema(marked, pinned, policy, "sink 1", new Date("2026-11-02T00:00:00Z"));
    expect(back.columns).toEqual(pinned);
  });

  it("summarizes any number of changes in counts and at most 20 described", () => {
    const many = Array.from({ length: 1000 }, (_, index) => column(`extra_${index}`, "string"));
    const outcome = reconcileSchema(
      pinned,
      [...pinned, ...many],
      { new_fields: "add", type_changes: "fail" },
      "s",
    );
    const summary = summarizeDrift(outcome.changes);
    expect(summary).toMatchObject({ added: 1000, ignored: 0, removed: 0, dropped: 0, retyped: 0, more: 980 });
    expect(summary.details).toHaveLength(20);
    expect(driftCounts(summary)).toBe("1000 new field(s) added");
    const lines = driftLines(outcome.changes);
    expect(lines).toHaveLength(21);
    expect(lines.at(-1)).toBe("… and 980 more changes (in all: 1000 new field(s) added)");
  });

  it("refuses many new fields under fail in one message of 20 named and a count", () => {
    const many = Array.from({ length: 500 }, (_, index) => column(`extra_${index}`, "string"));
    let error: unknown;
    try {
      reconcileSchema(pinned, [...pinned, ...many], { new_fields: "fail", type_changes: "fail" }, "s");
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(SchemaDriftError);
    expect((error as SchemaDriftError).message.match(/is new;/g)).toHaveLength(20);
    expect((error as SchemaDriftError).message).toMatch(/; and 480 more$/);
  });

  it("shows the service's names escaped: no control character reaches a log or terminal raw", () => {
    const outcome = reconcileSchema(
      pinned,
      [...pinned, column("a\u0000b\u001b[2J\nc", "string")],
      { new_fields: "add", type_changes: "fail" },
      "s",
    );
    expect(outcome.changes.map(describeChange)).toEqual([
      'new field "a\\u0000b\\u001b[2J\\nc" added as nullable string column',
    ]);
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
    expect((error as SchemaDriftError).message).toBe(
      'sink 1: the output schema drifted from the pinned schema: field "job.elapsed" (column elapsed) changed type from double (pinned) to string; schema.type_changes: string writes it as text',
    );
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
  });
});
