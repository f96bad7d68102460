import { describe, expect, it } from "vitest";
import { sliceWindow } from "../../config/window.js";
import { checkSliceGrid } from "./slice-grid.js";
import type { CommittedSlice, RunState } from "./state-schema.js";

const HOUR = 3_600_000;

function stateOf(slices: { id: string; start: Date; end: Date }[]): RunState {
  const committed: Record<string, CommittedSlice> = {};
  for (const slice of slices) {
    committed[slice.id] = {
      start: slice.start.toISOString(),
      end: slice.end.toISOString(),
      committed_at: "2026-11-26T00:00:00.000Z",
      read: 1,
      expected: 1,
      duplicates: 0,
      files: [],
    };
  }
  return {
    version: 1,
    pipeline: "grid",
    fingerprint: "f",
    journal_seq: 0,
    slices: committed,
    batches: {},
    superseded: {},
    rechecks: {},
    pending: {},
  };
}

const at = (iso: string): Date => new Date(iso);

describe("checkSliceGrid", () => {
  const state = stateOf(sliceWindow(at("2026-11-20T00:00:00Z"), at("2026-11-20T06:00:00Z"), HOUR));

  it("passes slices on the committed grid, and a narrower namesake when not forced (it is skipped)", () => {
    const aligned = sliceWindow(at("2026-11-20T02:00:00Z"), at("2026-11-20T09:00:00Z"), HOUR);
    expect(() => checkSliceGrid(state, aligned, "/out", true)).not.toThrow();
    const half = sliceWindow(at("2026-11-20T04:00:00Z"), at("2026-11-20T04:30:00Z"), HOUR);
    expect(() => checkSliceGrid(state, half, "/out", false)).not.toThrow();
  });

  it("refuses a slice off the grid, a longer slice, and a forced part of a slice", () => {
    const off = sliceWindow(at("2026-11-20T03:30:00Z"), at("2026-11-20T04:00:00Z"), HOUR);
    expect(() => checkSliceGrid(state, off, "/out", false)).toThrow(
      /slice 20261120T033000Z .* overlaps slice 20261120T030000Z .* write those records twice/,
    );
    const longer = sliceWindow(at("2026-11-20T00:00:00Z"), at("2026-11-20T06:00:00Z"), 3 * HOUR);
    expect(() => checkSliceGrid(state, longer, "/out", false)).toThrow(/overlaps slice 20261120T0[12]0000Z/);
    const half = sliceWindow(at("2026-11-20T04:00:00Z"), at("2026-11-20T04:30:00Z"), HOUR);
    expect(() => checkSliceGrid(state, half, "/out", true)).toThrow(/remove the records of the rest/);
  });

  it("checks a 49,000-slice backfill against about 100,000 committed slices, finding the one that overlaps", () => {
    const origin = Date.parse("2010-01-01T00:00:00Z");
    const hours = (count: number): Date => new Date(origin + count * HOUR);
    // sliceWindow cuts at most 50,000 slices at once: the committed history is two windows.
    const big = stateOf([
      ...sliceWindow(hours(0), hours(49_999), HOUR),
      ...sliceWindow(hours(49_999), hours(99_998), HOUR),
    ]);
    expect(Object.keys(big.slices)).toHaveLength(99_998);
    const backfill = sliceWindow(hours(50_000), hours(99_000), HOUR);
    // Speed is the benchmark's to measure, not a timed assertion on a shared machine.
    expect(() => checkSliceGrid(big, backfill, "/out", false)).not.toThrow();
    const shifted = [{ index: 0, id: "shifted", start: hours(70_000.5), end: hours(70_001) }];
    expect(() => checkSliceGrid(big, shifted, "/out", false)).toThrow(/overlaps slice/);
  });
});
