import { describe, expect, it } from "vitest";
import { NOW_AHEAD_TOLERANCE_MS, runNow } from "./command-options.js";

const clock = new Date("2026-03-12T10:30:00Z");
const current = (): Date => clock;

describe("runNow", () => {
  it("is the clock without --now, and --now as given when it is not ahead of the clock", () => {
    expect(runNow(undefined, current)).toBe(clock);
    expect(runNow("2026-03-11T02:00:00+01:00", current).toISOString()).toBe("2026-03-11T01:00:00.000Z");
    const edge = new Date(clock.getTime() + NOW_AHEAD_TOLERANCE_MS).toISOString();
    expect(runNow(edge, current).toISOString()).toBe(edge);
  });

  // Regression: a --now a day ahead recorded the slices the service had not indexed yet as settled.
  it("refuses a --now later than the clock plus the tolerance, naming both instants", () => {
    const ahead = new Date(clock.getTime() + NOW_AHEAD_TOLERANCE_MS + 1).toISOString();
    expect(() => runNow(ahead, current)).toThrow(
      `--now "${ahead}" (${ahead}) is ahead of this machine's clock (2026-03-12T10:30:00.000Z) by more than 5 minutes`,
    );
    expect(() => runNow("2026-03-13T10:30:00Z", current)).toThrow(/is ahead of this machine's clock/);
  });
});
