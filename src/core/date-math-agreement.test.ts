// The shared date-math parser against the three it replaces: config's window parser, the emulator's
// v1 time_range window and the emulator's range-filter bounds, on generated expressions each of
// them reads.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { resolveDateMath as configDateMath } from "../config/date-math.js";
import { dateMathWindow } from "../emulator/date-math.js";
import { dateMath as rangeBound } from "../emulator/query-dsl.js";
import { resolveDateMath } from "./date-math.js";

const UNITS = ["y", "M", "w", "d", "h", "H", "m", "s"] as const;

// 1971 to 2100: instants the service and the emulator's clock use.
const instant = fc.integer({ min: 31_536_000_000, max: 4_102_444_800_000 });
const unit = fc.constantFrom(...UNITS);
const amount = fc.integer({ min: 0, max: 500 });
const operation = fc.oneof(
  fc.tuple(fc.constantFrom("+", "-"), amount, unit).map(([sign, n, u]) => `${sign}${n}${u}`),
  unit.map((u) => `/${u}`),
);
const anchor = fc.oneof(
  fc.constant("now"),
  instant.map((ms) => `${new Date(ms).toISOString()}||`),
  instant.map((ms) => `${new Date(ms).toISOString().slice(0, 10)}||`),
);
const configExpression = fc.oneof(
  fc.tuple(anchor, fc.array(operation, { maxLength: 4 })).map(([head, ops]) => head + ops.join("")),
  fc.constantFrom("yesterday", "today", "last-hour", "now-1x", "tomorrow", "", "2026-11-20T00:00:00"),
  instant.map((ms) => new Date(ms).toISOString()),
  fc.string({ maxLength: 12 }),
);

function shared(expression: string, nowMs: number): number | string {
  const result = resolveDateMath(expression, new Date(nowMs));
  return result.ok ? result.date.getTime() : result.reason;
}

describe("the shared date-math parser", () => {
  it("agrees with config's parser on every expression, words and refusals included", () => {
    fc.assert(
      fc.property(configExpression, instant, (expression, nowMs) => {
        const old = configDateMath(expression, new Date(nowMs));
        expect(shared(expression, nowMs)).toEqual(old.ok ? old.date.getTime() : old.reason);
      }),
    );
  });

  it("agrees with the emulator's v1 time_range window: from the rounded start to now", () => {
    // The emulator's old rounding (`ms - ms % size`) rounded up before 1970; starts stay after it.
    const since2001 = fc.integer({ min: 978_307_200_000, max: 4_102_444_800_000 });
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 30 }), unit, unit, since2001, (n, add, round, nowMs) => {
        const expression = `now-${n}${add}/${round}`;
        expect(shared(expression, nowMs)).toBe(dateMathWindow(expression, nowMs).startMs);
      }),
    );
  });

  it("agrees with the emulator's range-filter bounds: now, plus or minus a fixed amount", () => {
    const bound = fc.oneof(
      fc.constant("now"),
      fc
        .tuple(fc.constantFrom("+", "-"), amount, fc.constantFrom("s", "m", "h", "H", "d", "w"))
        .map(([sign, n, u]) => `now${sign}${n}${u}`),
    );
    fc.assert(
      fc.property(bound, instant, (expression, nowMs) => {
        expect(shared(expression, nowMs)).toBe(rangeBound(expression, nowMs));
      }),
    );
  });
});
