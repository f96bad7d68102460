import { createHash, createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { redactSchema, redactTransform } from "./redact.js";
import { runRows } from "./run-transform.test-support.js";

const create = (config: unknown) => redactTransform.create(redactSchema.parse(config), { run: {} as never });

describe("redact", () => {
  it("hashes with SHA-256, or HMAC-SHA256 with a salt, leaving null and absent values", async () => {
    const rows = await runRows(create({ fields: ["user.id"] }), [
      { user: { id: "alice" } },
      { user: { id: null } },
      {},
    ]);
    expect(rows).toEqual([
      { user: { id: createHash("sha256").update("alice").digest("hex") } },
      { user: { id: null } },
      {},
    ]);
    const salt = "0123456789abcdef";
    const [salted] = await runRows(create({ fields: ["user.id"], salt }), [{ "user.id": 42 }]);
    expect(salted).toEqual({ "user.id": createHmac("sha256", salt).update("42").digest("hex") });
  });

  it("masks keeping the length, a fixed width, or the last characters", async () => {
    const [kept] = await runRows(create({ fields: ["n"], method: "mask" }), [{ n: "12345" }]);
    expect(kept).toEqual({ n: "*****" });
    const [fixed] = await runRows(create({ fields: ["n"], method: "mask", keep_length: false }), [
      { n: "12" },
    ]);
    expect(fixed).toEqual({ n: "********" });
    const [last] = await runRows(create({ fields: ["n"], method: "mask", keep_last: 2, mask_char: "#" }), [
      { n: "123456" },
    ]);
    expect(last).toEqual({ n: "####56" });
  });

  it("turns a redacted subtree into one string column and reports missing fields", () => {
    const result = redactTransform.columns(redactSchema.parse({ fields: ["user", "nope"] }), [
      { name: "user.id", type: "string" },
      { name: "user.age", type: "int32" },
      { name: "x", type: "double" },
    ]);
    expect(result.columns).toEqual([
      { name: "user", type: "string" },
      { name: "x", type: "double" },
    ]);
    expect(result.problems.map((problem) => problem.path)).toEqual(["fields.1"]);
  });

  it("refuses a bad config", () => {
    expect(redactSchema.safeParse({ fields: ["a"], method: "encrypt" }).success).toBe(false);
    expect(redactSchema.safeParse({ fields: ["a"], salt: "short" }).success).toBe(false);
    expect(redactSchema.safeParse({ fields: ["a"], method: "mask", salt: "0123456789abcdef" }).success).toBe(
      false,
    );
    expect(redactSchema.safeParse({ fields: ["a"], mask_char: "**" }).success).toBe(false);
  });
});
