import fc from "fast-check";
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

  it("renames a dotted key as it renames the column, so a second flatten agrees with its columns (fuzz seed 20261129)", async () => {
    const dotted = flattenSchema.parse({});
    const underscored = flattenSchema.parse({ separator: "_" });
    const once = await runRows(flattenTransform.create(dotted, { run: {} as never }), [row]);
    const [twice] = await runRows(flattenTransform.create(underscored, { run: {} as never }), once);
    const derived = flattenTransform.columns(
      underscored,
      flattenTransform.columns(dotted, [{ name: "job.execution_time.elapsed", type: "double" }]).columns,
    );
    expect(derived.columns.map((column) => column.name)).toEqual(["job_execution_time_elapsed"]);
    expect(twice).toMatchObject({ job_execution_time_elapsed: 2, job_id: "1" });
    expect(Object.keys(twice ?? {})).not.toContain("job.execution_time.elapsed");
  });

  it("names every leaf as its columns say, whatever chain of separators flattens it", async () => {
    const key = fc.stringMatching(/^[a-z]{1,3}$/);
    const tree: fc.Arbitrary<Record<string, unknown>> = fc.letrec((tie) => ({
      node: fc.dictionary(key, fc.oneof(fc.integer(), tie("node")), { minKeys: 1, maxKeys: 3 }),
    })).node as fc.Arbitrary<Record<string, unknown>>;
    const separators = fc.array(fc.constantFrom(".", "_", "__", "-"), { minLength: 1, maxLength: 3 });
    await fc.assert(
      fc.asyncProperty(tree, separators, async (record, chain) => {
        const leaves: string[] = [];
        const visit = (prefix: string, value: Record<string, unknown>): void => {
          for (const [name, inner] of Object.entries(value)) {
            const path = prefix === "" ? name : `${prefix}.${name}`;
            if (typeof inner === "object" && inner !== null && Object.keys(inner).length > 0)
              visit(path, inner as Record<string, unknown>);
            else leaves.push(path);
          }
        };
        visit("", record);
        let rows: Record<string, unknown>[] = [record];
        let columns = leaves.map((name) => ({ name, type: "string" as const }));
        for (const separator of chain) {
          const config = flattenSchema.parse({ separator });
          rows = await runRows(flattenTransform.create(config, { run: {} as never }), rows);
          columns = flattenTransform
            .columns(config, columns)
            .columns.map((c) => ({ ...c, type: "string" as const }));
        }
        expect(Object.keys(rows[0] ?? {}).sort()).toEqual(columns.map((column) => column.name).sort());
      }),
      { numRuns: 200 },
    );
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
