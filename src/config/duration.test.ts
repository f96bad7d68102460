import { describe, expect, it } from "vitest";
import { parseDuration } from "./duration.js";

describe("durations", () => {
  it("parses units and refuses the rest", () => {
    expect(parseDuration("30s")).toBe(30_000);
    expect(parseDuration("15m")).toBe(900_000);
    expect(parseDuration("1h")).toBe(3_600_000);
    expect(parseDuration("1d")).toBe(86_400_000);
    expect(parseDuration("1w")).toBe(604_800_000);
    for (const bad of ["0h", "1M", "1.5h", "h", "15", "-1h", "1 h"])
      expect(parseDuration(bad)).toBeUndefined();
  });
});
