import { describe, expect, it } from "vitest";
import { renameSchema, renameTransform } from "./rename.js";
import { runRows } from "./run-transform.test-support.js";

const input = [
  { name: "job.id", type: "string" as const },
  { name: "job.execution_time.elapsed", type: "double" as const },
  { name: "elapsed_s", type: "double" as const },
];

describe("rename", () => {
  it("moves nested and flat fields and leaves rows without them alone", async () => {
    const transform = renameTransform.create(
      renameSchema.parse({ "job.execution_time.elapsed": "elapsed_s" }),
      {
        run: {} as never,
      },
    );
    const rows = await runRows(transform, [
      { job: { id: "1", execution_time: { elapsed: 2 } } },
      { "job.execution_time.elapsed": 3 },
      { job: { id: "2" } },
    ]);
    expect(rows).toEqual([{ job: { id: "1" }, elapsed_s: 2 }, { elapsed_s: 3 }, { job: { id: "2" } }]);
  });

  it("renames columns and subtrees, and reports missing fields and clashes", () => {
    const renamed = renameTransform.columns({ job: "j" }, input.slice(0, 2));
    expect(renamed.columns.map((column) => column.name)).toEqual(["j.id", "j.execution_time.elapsed"]);
    const result = renameTransform.columns(
      { "job.idd": "id", "job.execution_time.elapsed": "elapsed_s" },
      input,
    );
    expect(result.problems).toEqual([
      { path: "job.idd", message: expect.stringContaining('did you mean "job.id"') },
      {
        path: "job.execution_time.elapsed",
        message: expect.stringContaining("would overwrite"),
        overwrites: true,
      },
    ]);
  });

  it("refuses a bad config", () => {
    expect(renameSchema.safeParse({}).success).toBe(false);
    expect(renameSchema.safeParse({ a: 1 }).success).toBe(false);
    expect(renameSchema.safeParse(["a"]).success).toBe(false);
  });
});
