import { describe, expect, it } from "vitest";
import { flattenSchema, flattenTransform } from "./flatten.js";
import { runRows } from "./run-transform.test-support.js";

describe("flatten", () => {
  const row = {
    _id: "a",
    job: { id: "1", execution_time: { elapsed: 2 } },
    tags: [{ k: 1 }],
    empty: {},
    n: null,
  };

  it("joins nested keys with dots by default, keeping arrays, empty objects and nulls as values", async () => {
    const [out] = await runRows(flattenTransform.create(flattenSchema.parse({}), { run: {} as never }), [
      row,
    ]);
    expect(out).toEqual({
      _id: "a",
      "job.id": "1",
      "job.execution_time.elapsed": 2,
      tags: [{ k: 1 }],
      empty: {},
      n: null,
    });
  });

  it("uses the separator for rows and columns", async () => {
    const config = flattenSchema.parse({ separator: "_" });
    const [out] = await runRows(flattenTransform.create(config, { run: {} as never }), [row]);
    expect(Object.keys(out ?? {})).toContain("job_execution_time_elapsed");
    const columns = flattenTransform.columns(config, [{ name: "job.id", type: "string" }]);
    expect(columns).toEqual({ columns: [{ name: "job_id", type: "string" }], problems: [] });
  });

  it("refuses a bad config", () => {
    expect(flattenSchema.safeParse({ separator: "" }).success).toBe(false);
    expect(flattenSchema.safeParse({ sep: "_" }).success).toBe(false);
  });

  it("keeps a record's field named __proto__ as a field, not as the row's prototype", async () => {
    const record = JSON.parse('{"__proto__":"top","job":{"__proto__":{"id":"7"}}}') as Record<
      string,
      unknown
    >;
    const [out] = await runRows(flattenTransform.create(flattenSchema.parse({}), { run: {} as never }), [
      record,
    ]);
    expect(Object.getOwnPropertyDescriptor(out ?? {}, "__proto__")?.value).toBe("top");
    expect(out?.["job.__proto__.id"]).toBe("7");
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
  });
});
