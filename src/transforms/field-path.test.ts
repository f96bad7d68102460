import { describe, expect, it } from "vitest";
import { readField, removeField, writeField } from "./field-path.js";

describe("field paths", () => {
  const nested = { job: { id: "7", execution_time: { elapsed: 3.5 } }, "@timestamp": "t" };

  it("reads nested paths, literal dotted keys, and prefers the literal key", () => {
    expect(readField(nested, "job.execution_time.elapsed")).toEqual({ found: true, value: 3.5 });
    expect(readField({ "job.id": "flat" }, "job.id")).toEqual({ found: true, value: "flat" });
    expect(readField({ "job.id": "flat", job: { id: "nested" } }, "job.id")).toEqual({
      found: true,
      value: "flat",
    });
    expect(readField({ "job.execution_time": { elapsed: 1 } }, "job.execution_time.elapsed").found).toBe(
      true,
    );
    expect(readField(nested, "job.name").found).toBe(false);
    expect(readField({ job: null }, "job.id").found).toBe(false);
  });

  it("removes without touching the input and shares untouched subtrees", () => {
    const other = { a: 1 };
    const row = { job: { id: "7", name: "n" }, other };
    const out = removeField(row, "job.id");
    expect(out).toEqual({ job: { name: "n" }, other });
    expect(row.job.id).toBe("7");
    expect(out.other).toBe(other);
    expect(removeField(row, "missing.path")).toBe(row);
  });

  it("writes into an existing parent, else under the literal key", () => {
    expect(writeField({ job: { id: "7" } }, "job.state", "DONE")).toEqual({
      job: { id: "7", state: "DONE" },
    });
    expect(writeField({}, "job.state", "DONE")).toEqual({ "job.state": "DONE" });
    expect(writeField({ "job.state": "A" }, "job.state", "B")).toEqual({ "job.state": "B" });
  });
});
