import { describe, expect, it } from "vitest";
import { selectSchema, selectTransform } from "./select.js";
import { runRows } from "./run-transform.test-support.js";

const columns = [
  { name: "_id", type: "string" as const },
  { name: "job.id", type: "string" as const },
  { name: "job.name", type: "string" as const },
  { name: "job.execution_time.elapsed", type: "double" as const },
];

describe("select", () => {
  it("keeps the listed fields in order, nested and flat, and whole subtrees", async () => {
    const transform = selectTransform.create(selectSchema.parse({ fields: ["job.id", "_id"] }), {
      run: {} as never,
    });
    const rows = await runRows(transform, [
      { _id: "a", job: { id: "1", name: "x" }, extra: 1 },
      { _id: "b", "job.id": "2", "job.name": "y" },
      { _id: "c" },
    ]);
    expect(rows).toEqual([{ job: { id: "1" }, _id: "a" }, { "job.id": "2", _id: "b" }, { _id: "c" }]);
    expect(Object.keys(rows[0] ?? {})).toEqual(["job", "_id"]);
  });

  it("reports columns, and fields the stage will not receive with a close match", () => {
    const result = selectTransform.columns({ fields: ["job", "job.nam"] }, columns);
    expect(result.columns.map((column) => column.name)).toEqual([
      "job.id",
      "job.name",
      "job.execution_time.elapsed",
    ]);
    expect(result.problems).toEqual([
      { path: "fields.1", message: expect.stringContaining('did you mean "job.name"') },
    ]);
  });

  it("refuses a bad config", () => {
    expect(selectSchema.safeParse({ fields: [] }).success).toBe(false);
    expect(selectSchema.safeParse({ field: ["a"] }).success).toBe(false);
    expect(selectSchema.safeParse({ fields: ["a", "a"] }).success).toBe(false);
    expect(selectSchema.safeParse({ fields: ["a..b"] }).success).toBe(false);
  });
});
