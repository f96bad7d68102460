import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { countSlices, formatSliceId, MAX_SLICES, sliceWindow } from "./window.js";

const d = (iso: string) => new Date(iso);
const HOUR = 3_600_000;

describe("windows and slices", () => {
  it("cuts an aligned window into whole slices with deterministic ids", () => {
    const slices = sliceWindow(d("2026-11-21T00:00:00Z"), d("2026-11-21T03:00:00Z"), "1h");
    expect(slices.map((slice) => [slice.index, slice.id, slice.end.toISOString()])).toEqual([
      [0, "20261121T000000Z", "2026-11-21T01:00:00.000Z"],
      [1, "20261121T010000Z", "2026-11-21T02:00:00.000Z"],
      [2, "20261121T020000Z", "2026-11-21T03:00:00.000Z"],
    ]);
  });

  it("aligns to slice boundaries and clips the first and last slice to the window", () => {
    const slices = sliceWindow(d("2026-11-21T00:30:00Z"), d("2026-11-21T02:15:00Z"), HOUR);
    expect(slices.map((slice) => [slice.start.toISOString(), slice.end.toISOString()])).toEqual([
      ["2026-11-21T00:30:00.000Z", "2026-11-21T01:00:00.000Z"],
      ["2026-11-21T01:00:00.000Z", "2026-11-21T02:00:00.000Z"],
      ["2026-11-21T02:00:00.000Z", "2026-11-21T02:15:00.000Z"],
    ]);
    expect(countSlices(d("2026-11-21T00:30:00Z"), d("2026-11-21T02:15:00Z"), HOUR)).toBe(3);
  });

  it("handles a window shorter than a slice, an empty window, and day slices", () => {
    expect(sliceWindow(d("2026-11-21T00:10:00Z"), d("2026-11-21T00:20:00Z"), "1d")).toHaveLength(1);
    expect(sliceWindow(d("2026-11-21T00:00:00Z"), d("2026-11-21T00:00:00Z"), "1h")).toEqual([]);
    expect(sliceWindow(d("2026-11-21T00:00:00Z"), d("2026-11-20T00:00:00Z"), "1h")).toEqual([]);
    const days = sliceWindow(d("2026-11-01T00:00:00Z"), d("2026-12-01T00:00:00Z"), "1d");
    expect(days).toHaveLength(30);
    expect(days.at(-1)?.id).toBe("20261130T000000Z");
    expect(countSlices(d("2026-11-01T00:00:00Z"), d("2026-12-01T00:00:00Z"), 86_400_000)).toBe(30);
  });

  it("writes milliseconds in the id only when present, and refuses bad slices", () => {
    expect(formatSliceId(d("2026-11-21T00:00:00.250Z"))).toBe("20261121T000000.250Z");
    expect(() => sliceWindow(d("2026-11-21T00:00:00Z"), d("2026-11-22T00:00:00Z"), "1M")).toThrow(
      /positive duration/,
    );
    expect(() => sliceWindow(d("2020-01-01T00:00:00Z"), d("2026-01-01T00:00:00Z"), "1m")).toThrow(
      /more than/,
    );
  });

  // Regression: validate counted exactly 50,000 aligned slices as allowed, and cutting the same
  // window refused it (it counted one slice more than the window makes), so plan and run failed on a
  // pipeline validate had passed.
  it("cuts a window of exactly MAX_SLICES slices, and refuses one slice more", () => {
    const start = d("2026-01-01T00:00:00Z");
    const minute = 60_000;
    expect(sliceWindow(start, new Date(start.getTime() + MAX_SLICES * minute), minute)).toHaveLength(
      MAX_SLICES,
    );
    expect(() => sliceWindow(start, new Date(start.getTime() + (MAX_SLICES + 1) * minute), minute)).toThrow(
      /more than 50000 slices/,
    );
  });

  it("makes as many slices as countSlices says, and refuses exactly the windows countSlices puts over the limit", () => {
    const base = Date.parse("2026-01-01T00:00:00Z");
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10 * 86_400_000 }),
        fc.boolean(),
        // A span anywhere, or one at the limit: a few slices either side of MAX_SLICES, shifted by
        // part of a slice, where the two counts parted (a window of exactly MAX_SLICES was refused).
        fc.oneof(
          fc.record({ ms: fc.integer({ min: 1, max: 40 * 86_400_000 }) }),
          fc.record({
            slices: fc.integer({ min: -2, max: 1 }),
            part: fc.double({ min: 0, max: 1, noNaN: true }),
          }),
        ),
        fc.constantFrom(1_000, 60_000, 900_000, 3_600_000, 86_400_000, 7_000),
        (rawOffset, aligned, spanOf, sliceMs) => {
          const offset = aligned ? rawOffset - (rawOffset % sliceMs) : rawOffset;
          const span =
            "ms" in spanOf
              ? spanOf.ms
              : (MAX_SLICES + spanOf.slices) * sliceMs - Math.floor(spanOf.part * (sliceMs - 1));
          const start = new Date(base + offset);
          const end = new Date(base + offset + span);
          const count = countSlices(start, end, sliceMs);
          if (count > MAX_SLICES) {
            expect(() => sliceWindow(start, end, sliceMs)).toThrow(/more than/);
            return;
          }
          const slices = sliceWindow(start, end, sliceMs);
          expect(slices).toHaveLength(count);
          expect(slices[0]?.start.getTime()).toBe(start.getTime());
          expect(slices.at(-1)?.end.getTime()).toBe(end.getTime());
        },
      ),
      { numRuns: 80 },
    );
  });
});
