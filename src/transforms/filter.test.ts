import { describe, expect, it } from "vitest";
import { filterSchema, filterTransform } from "./filter.js";
import { runRows, runTransform } from "./run-transform.test-support.js";

const rows = [
  { id: 1, job: { state: "FAILED", elapsed: 10 }, at: "2026-11-20T00:30:00Z", name: "nightly-a" },
  { id: 2, job: { state: "DONE", elapsed: "400" }, at: "2026-11-20T02:00:00Z", name: "test-b" },
  { id: 3, "job.state": "REJECTED", at: "2026-11-20T03:00:00.000+01:00" },
  { id: 4, job: { state: null } },
];

async function ids(condition: unknown): Promise<unknown[]> {
  const transform = filterTransform.create(filterSchema.parse(condition), { run: {} as never });
  const [batch = []] = await runTransform(transform, [{ kind: "rows", rows }]);
  return batch.map((row) => row.id);
}

describe("filter", () => {
  it("compares one field", async () => {
    expect(await ids({ field: "job.state", equals: "FAILED" })).toEqual([1]);
    expect(await ids({ field: "job.state", not_equals: "FAILED" })).toEqual([2, 3, 4]);
    expect(await ids({ field: "job.state", in: ["DONE", "REJECTED"] })).toEqual([2, 3]);
    expect(await ids({ field: "job.state", exists: true })).toEqual([1, 2, 3]);
    expect(await ids({ field: "job.state", exists: false })).toEqual([4]);
    expect(await ids({ field: "job.elapsed", gt: 10 })).toEqual([2]);
    expect(await ids({ field: "job.elapsed", gte: 10, lt: 100 })).toEqual([1]);
    expect(await ids({ field: "at", lte: "2026-11-20T02:00:00Z" })).toEqual([1, 2, 3]);
    expect(await ids({ field: "name", matches: "^test-" })).toEqual([2]);
  });

  it("reads a timestamp without an offset as UTC, whatever the process's zone (regression: Date.parse took it as local time)", async () => {
    const zone = process.env["TZ"];
    process.env["TZ"] = "Asia/Kolkata";
    try {
      const local = [
        { id: 1, at: "2026-11-20T02:00:00" },
        { id: 2, at: "2026-11-20T01:59:59.999" },
      ];
      const transform = filterTransform.create(
        filterSchema.parse({ field: "at", gte: "2026-11-20T02:00:00Z" }),
        { run: {} as never },
      );
      const [batch = []] = await runTransform(transform, [{ kind: "rows", rows: local }]);
      expect(batch.map((row) => row.id)).toEqual([1]);
    } finally {
      if (zone === undefined) delete process.env["TZ"];
      else process.env["TZ"] = zone;
    }
  });

  it("combines with all, any and not", async () => {
    expect(
      await ids({
        any: [
          { field: "id", equals: 1 },
          { field: "id", equals: 4 },
        ],
      }),
    ).toEqual([1, 4]);
    expect(
      await ids({ all: [{ field: "job.state", exists: true }, { not: { field: "id", in: [1, 2] } }] }),
    ).toEqual([3]);
  });

  it("keeps empty batches flowing", async () => {
    const transform = filterTransform.create(filterSchema.parse({ field: "id", equals: 99 }), {
      run: {} as never,
    });
    expect(
      await runTransform(transform, [
        { kind: "rows", rows },
        { kind: "rows", rows: [] },
      ]),
    ).toEqual([[], []]);
  });

  it("reports fields it will not receive, at their place in the condition", () => {
    const result = filterTransform.columns(
      { all: [{ field: "id", equals: 1 }, { not: { field: "job.stat", exists: true } }] },
      [
        { name: "id", type: "int64" },
        { name: "job.state", type: "string" },
      ],
    );
    expect(result.problems).toEqual([
      { path: "all.1.not.field", message: expect.stringContaining("job.state") },
    ]);
  });

  it("matches in linear time: a pattern that backtracks for days in a JavaScript engine answers at once", async () => {
    const hostile = [
      { id: 1, name: `${"a".repeat(40)}!` },
      { id: 2, name: "a".repeat(40) },
    ];
    const config = filterSchema.parse({ field: "name", matches: "^(a+)+$" });
    const kept = await runRows(filterTransform.create(config, { run: {} as never }), hostile);
    expect(kept.map((row) => row.id)).toEqual([2]);
  });

  it("refuses patterns only a backtracking engine can run, saying why", () => {
    for (const pattern of ["(?=a)b", "(a)\\1", "(?<!x)y"]) {
      const parsed = filterSchema.safeParse({ field: "a", matches: pattern });
      expect(parsed.success, pattern).toBe(false);
      expect(parsed.error?.issues[0]?.message).toContain("use RE2 syntax: no lookaround, no backreferences");
    }
  });

  it("refuses a bad config", () => {
    expect(filterSchema.safeParse({ field: "a" }).success).toBe(false);
    expect(filterSchema.safeParse({ equals: 1 }).success).toBe(false);
    expect(filterSchema.safeParse({ field: "a", matches: "(" }).success).toBe(false);
    expect(filterSchema.safeParse({ all: [], any: [] }).success).toBe(false);
    expect(
      filterSchema.safeParse({ field: "a", equals: 1, all: [{ field: "b", exists: true }] }).success,
    ).toBe(false);
    expect(filterSchema.safeParse({ field: "a", equal: 1 }).success).toBe(false);
  });
});
