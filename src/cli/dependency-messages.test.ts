import process from "node:process";
import { describe, expect, it } from "vitest";
import { routeDependencyMessages } from "./dependency-messages.js";
import type { DependencyMessage } from "./io.js";

describe("routeDependencyMessages", () => {
  it("hands process warnings and console output to the handler, and restores both when released", async () => {
    const messages: DependencyMessage[] = [];
    const listenersBefore = process.listeners("warning");
    const warnBefore = console.warn;
    const release = routeDependencyMessages((message) => messages.push(message));
    try {
      expect(process.listeners("warning")).toHaveLength(1);
      const emitted = new Promise((resolve) => process.once("warning", resolve));
      process.emitWarning("the old way is deprecated", { type: "DeprecationWarning", code: "DEP9999" });
      await emitted;
      console.warn("checksum %s", "skipped");
    } finally {
      release();
    }
    expect(messages).toEqual([
      {
        source: "process_warning",
        message: "the old way is deprecated",
        name: "DeprecationWarning",
        code: "DEP9999",
      },
      { source: "console", message: "checksum skipped", name: "console.warn" },
    ]);
    expect(process.listeners("warning")).toEqual(listenersBefore);
    expect(console.warn).toBe(warnBefore);
  });
});
