import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isConfigError } from "../errors.js";
import { observabilitySettings } from "./observability-settings.js";

/** The ConfigError observabilitySettings throws for `env`, as its message and issue path. */
function refusal(env: Record<string, string>): { message: string; path: string | undefined } {
  try {
    observabilitySettings({}, env);
  } catch (error) {
    if (!isConfigError(error)) throw error;
    return { message: error.message, path: error.issues[0]?.path };
  }
  throw new Error("accepted");
}

describe("the Pushgateway's interval and deadline", () => {
  it("default to 15 s between pushes and 10 s per push", () => {
    expect(observabilitySettings({}, {})).toMatchObject({ pushIntervalMs: 15_000, pushDeadlineMs: 10_000 });
  });

  it("take any whole seconds between pushes, 0 for a push at the end only", () => {
    fc.assert(
      fc.property(fc.nat({ max: 100_000 }), (seconds) => {
        const settings = observabilitySettings({}, { MDQ_PUSH_INTERVAL_SECONDS: String(seconds) });
        expect(settings.pushIntervalMs).toBe(seconds * 1000);
      }),
    );
  });

  it("take a deadline of whole seconds from 1 to 60", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 60 }), (seconds) => {
        const settings = observabilitySettings({}, { MDQ_PUSH_TIMEOUT_SECONDS: String(seconds) });
        expect(settings.pushDeadlineMs).toBe(seconds * 1000);
      }),
    );
  });

  it("refuse what is not whole seconds, naming the variable and its value", () => {
    for (const text of ["1.5", "-1", "ten", ""])
      expect(refusal({ MDQ_PUSH_INTERVAL_SECONDS: text })).toEqual({
        message: `MDQ_PUSH_INTERVAL_SECONDS "${text}" is not whole seconds`,
        path: "MDQ_PUSH_INTERVAL_SECONDS",
      });
    for (const text of ["0", "61", "2.5", "x"])
      expect(refusal({ MDQ_PUSH_TIMEOUT_SECONDS: text })).toEqual({
        message: `MDQ_PUSH_TIMEOUT_SECONDS "${text}" is not whole seconds from 1 to 60`,
        path: "MDQ_PUSH_TIMEOUT_SECONDS",
      });
  });
});
