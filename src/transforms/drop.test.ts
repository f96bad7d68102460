import { describe, expect, it } from "vitest";
import { dropSchema, dropTransform } from "./drop.js";
import { runRows } from "./run-transform.test-support.js";

describe("drop", () => {
  it("removes fields and subtrees from nested and flat rows", async () => {
    const transform = dropTransform.create(dropSchema.parse({ fields: ["job.name", "_index"] }), {
      run: {} as never,
    });
    const rows = await runRows(transform, [
      { _index: "i", job: { id: "1", name: "x" } },
      { "job.name": "y", "job.id": "2" },
    ]);
    expect(rows).toEqual([{ job: { id: "1" } }, { "job.id": "2" }]);
  });

  it("drops columns under a path and reports missing ones", () => {
    const input = [
      { name: "job.id", type: "string" as const },
      { name: "job.name", type: "string" as const },
      { name: "_id", type: "string" as const },
    ];
    const result = dropTransform.columns({ fields: ["job", "nope"] }, input);
    expect(result.columns).toEqual([{ name: "_id", type: "string" }]);
    expect(result.problems.map((problem) => problem.path)).toEqual(["fields.1"]);
  });

  it("refuses a bad config", () => {
    expect(dropSchema.safeParse({ fields: "job.id" }).success).toBe(false);
    expect(dropSchema.safeParse({}).success).toBe(false);
  });
});
