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
    expect(schema.pinChanged).toBe(true);
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
    });
    expect(now.pinChanged).toBe(false);
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
});
