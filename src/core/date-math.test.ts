import { describe, expect, it } from "vitest";
import { resolveDateMath } from "./date-math.js";

// A Saturday afternoon, with seconds and milliseconds, so every rounding shows.
const now = new Date("2026-11-21T15:42:17.250Z");

function at(text: string): string {
  const result = resolveDateMath(text, now);
  if (!result.ok) throw new Error(result.reason);
  return result.date.toISOString();
}

describe("date-math", () => {
  it("rounds down in UTC by year, month, week (Monday), day, hour, minute, second", () => {
    expect(at("now/y")).toBe("2026-01-01T00:00:00.000Z");
    expect(at("now/M")).toBe("2026-11-01T00:00:00.000Z");
    expect(at("now/w")).toBe("2026-11-16T00:00:00.000Z");
    expect(at("now/d")).toBe("2026-11-21T00:00:00.000Z");
    expect(at("now/h")).toBe("2026-11-21T15:00:00.000Z");
    expect(at("now/H")).toBe("2026-11-21T15:00:00.000Z");
    expect(at("now/m")).toBe("2026-11-21T15:42:00.000Z");
    expect(at("now/s")).toBe("2026-11-21T15:42:17.000Z");
  });

  it("adds and subtracts, left to right, across month and year ends", () => {
    expect(at("now")).toBe(now.toISOString());
    expect(at("now-6h")).toBe("2026-11-21T09:42:17.250Z");
    expect(at("now-1d/d")).toBe("2026-11-20T00:00:00.000Z");
    expect(at("now-1d/d+6h")).toBe("2026-11-20T06:00:00.000Z");
    expect(at("now+2M/M")).toBe("2027-01-01T00:00:00.000Z");
    expect(at("now-1y-1w/d")).toBe("2025-11-14T00:00:00.000Z");
    expect(at("now-90m")).toBe("2026-11-21T14:12:17.250Z");
    expect(at("now-30s/s")).toBe("2026-11-21T15:41:47.000Z");
  });

  it("reads ISO timestamps, dates and anchored date-math", () => {
    expect(at("2026-11-20T00:00:00Z")).toBe("2026-11-20T00:00:00.000Z");
    expect(at("2026-11-20T01:00:00.5+01:00")).toBe("2026-11-20T00:00:00.500Z");
    expect(at("2026-11-20")).toBe("2026-11-20T00:00:00.000Z");
    expect(at("2026-11-20T10:00:00Z||+1d/d")).toBe("2026-11-21T00:00:00.000Z");
  });

  it("reads the words as the start of the period they name", () => {
    expect(at("yesterday")).toBe("2026-11-20T00:00:00.000Z");
    expect(at("today")).toBe("2026-11-21T00:00:00.000Z");
    expect(at("last-hour")).toBe("2026-11-21T14:00:00.000Z");
  });

  it("refuses what it cannot read, saying why", () => {
    expect(resolveDateMath("2026-11-20T00:00:00", now)).toMatchObject({
      ok: false,
      reason: expect.stringContaining("zone"),
    });
    expect(resolveDateMath("now-1x", now)).toMatchObject({
      ok: false,
      reason: expect.stringContaining("-1x"),
    });
    expect(resolveDateMath("now-d", now).ok).toBe(false);
    expect(resolveDateMath("2026-13-45", now).ok).toBe(false);
    expect(resolveDateMath("tomorrow", now).ok).toBe(false);
    expect(resolveDateMath("", now).ok).toBe(false);
  });
});
