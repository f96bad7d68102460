// The date-math grammar on generated expressions, against an independent reckoning in milliseconds
// (how the emulator computed its v1 time_range window and its range-filter bounds before it shared
// this parser): fixed units as multiples, months and years on the calendar, rounding by remainder.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { resolveDateMath } from "./date-math.js";

const FIXED_MS: Record<string, number> = {
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  H: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
};

function add(ms: number, n: number, unit: string): number {
  const date = new Date(ms);
  if (unit === "y") return date.setUTCFullYear(date.getUTCFullYear() + n);
  if (unit === "M") return date.setUTCMonth(date.getUTCMonth() + n);
  return ms + n * (FIXED_MS[unit] ?? 0);
}

function roundDown(ms: number, unit: string): number {
  const date = new Date(ms);
  if (unit === "y") return Date.UTC(date.getUTCFullYear(), 0, 1);
  if (unit === "M") return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
  if (unit === "w") {
    const day = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate());
    return day - ((date.getUTCDay() + 6) % 7) * 86_400_000;
  }
  const size = FIXED_MS[unit] ?? 1;
  return ms - (ms % size);
}

const UNITS = ["y", "M", "w", "d", "h", "H", "m", "s"] as const;
const unit = fc.constantFrom(...UNITS);
// 2001 to 2100: thirty years back stays after 1970, where a remainder rounds down.
const instant = fc.integer({ min: 978_307_200_000, max: 4_102_444_800_000 });

function shared(expression: string, nowMs: number): number {
  const result = resolveDateMath(expression, new Date(nowMs));
  if (!result.ok) throw new Error(`${expression}: ${result.reason}`);
  return result.date.getTime();
}

describe("the date-math grammar", () => {
  it("reads a v1 time_range (now-<n><unit>/<unit>) as the rounded start the service means", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 30 }), unit, unit, instant, (n, step, round, nowMs) => {
        expect(shared(`now-${n}${step}/${round}`, nowMs)).toBe(roundDown(add(nowMs, -n, step), round));
      }),
    );
  });

  it("reads chains of steps and roundings from now, left to right", () => {
    const operation = fc.oneof(
      fc.tuple(fc.constantFrom(1, -1), fc.integer({ min: 0, max: 30 }), unit).map(([sign, n, u]) => ({
        text: `${sign > 0 ? "+" : "-"}${n}${u}`,
        apply: (ms: number) => add(ms, sign * n, u),
      })),
      unit.map((u) => ({ text: `/${u}`, apply: (ms: number) => roundDown(ms, u) })),
    );
    // Four steps of up to thirty years back from 2131 stay after 1970.
    const later = fc.integer({ min: 5_080_665_600_000, max: 10_413_792_000_000 });
    fc.assert(
      fc.property(fc.array(operation, { maxLength: 4 }), later, (operations, nowMs) => {
        const expression = `now${operations.map((op) => op.text).join("")}`;
        const expected = operations.reduce((ms, op) => op.apply(ms), nowMs);
        expect(shared(expression, nowMs)).toBe(expected);
      }),
    );
  });
});
