import { describe, expect, it } from "vitest";
import { addSchema, addTransform } from "./add.js";
import { runRows } from "./run-transform.test-support.js";

describe("add", () => {
  it("adds constants and run metadata", async () => {
    const config = addSchema.parse({
      exported_at: { from: "export_time" },
      slice_start: { from: "slice_start" },
      slice_end: { from: "slice_end" },
      pipeline: { from: "pipeline_name" },
      run: { from: "run_id" },
      source_system: { value: "mdq" },
      none: { value: null },
      "job.exported": { value: true },
    });
    const [row] = await runRows(addTransform.create(config, { run: {} as never }), [{ job: { id: "1" } }]);
    expect(row).toEqual({
      job: { id: "1", exported: true },
      exported_at: "2026-11-21T03:00:00.000Z",
      slice_start: "2026-11-20T00:00:00.000Z",
      slice_end: "2026-11-20T01:00:00.000Z",
      pipeline: "nightly-jobs",
      run: "run-1",
      source_system: "mdq",
      none: null,
    });
  });

  it("types the new columns and refuses to overwrite an existing one", () => {
    const result = addTransform.columns(
      { at: { from: "export_time" }, n: { value: 1.5 }, id: { value: "x" } },
      [{ name: "id", type: "string" }],
    );
    expect(result.columns).toEqual([
      { name: "id", type: "string" },
      { name: "at", type: "timestamp" },
      { name: "n", type: "double" },
    ]);
    expect(result.problems).toEqual([
      { path: "id", message: expect.stringContaining("already exists"), overwrites: true },
    ]);
  });

  it("refuses a bad config", () => {
    expect(addSchema.safeParse({}).success).toBe(false);
    expect(addSchema.safeParse({ a: { value: 1, from: "run_id" } }).success).toBe(false);
    expect(addSchema.safeParse({ a: { from: "now" } }).success).toBe(false);
    expect(addSchema.safeParse({ a: {} }).success).toBe(false);
  });
});
