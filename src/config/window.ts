// Export windows: cutting `[start, end)` into slices, the unit of work, retry and commit.
import type { Slice } from "../core/contracts.js";
import { parseDuration } from "./duration.js";

/** More slices than this is almost always a typo (a year in 1m slices); the plan would be unusable. */
export const MAX_SLICES = 50_000;

/**
 * `20261121T000000Z`: the slice start in UTC, compact, sortable and safe in file names.
 * Milliseconds appear only when non-zero, so ordinary slices keep the short form.
 */
export function formatSliceId(start: Date): string {
  const iso = start.toISOString();
  const ms = iso.slice(20, 23);
  const compact = iso.slice(0, 19).replaceAll("-", "").replaceAll(":", "");
  return ms === "000" ? `${compact}Z` : `${compact}.${ms}Z`;
}

/**
 * Cuts `[start, end)` into slices of `sliceMs`, aligned to multiples of the slice length since the
 * epoch (UTC midnight for slices that divide a day), so overlapping runs and backfills produce the
 * same slice ids. The first and last slices are clipped to the window.
 * @example sliceWindow(new Date("2026-11-21T00:30Z"), new Date("2026-11-21T02:00Z"), 3_600_000)
 * // [00:30–01:00, 01:00–02:00]
 */
export function sliceWindow(start: Date, end: Date, slice: number | string): Slice[] {
  const sliceMs = typeof slice === "number" ? slice : parseDuration(slice);
  if (sliceMs === undefined || !Number.isFinite(sliceMs) || sliceMs <= 0) {
    throw new RangeError(`slice "${String(slice)}" is not a positive duration such as 15m, 1h, 1d`);
  }
  const from = start.getTime();
  const to = end.getTime();
  if (!(to > from)) return [];
  // The count validate checks: a window it accepts is never refused here.
  if (countSlices(start, end, sliceMs) > MAX_SLICES) {
    throw new RangeError(`the window would be cut into more than ${MAX_SLICES} slices; use a longer slice`);
  }
  const slices: Slice[] = [];
  let cursor = from;
  while (cursor < to) {
    const boundary = (Math.floor(cursor / sliceMs) + 1) * sliceMs;
    const next = Math.min(boundary, to);
    const sliceStart = new Date(cursor);
    slices.push({
      index: slices.length,
      id: formatSliceId(sliceStart),
      start: sliceStart,
      end: new Date(next),
    });
    cursor = next;
  }
  return slices;
}

/** How many slices a window makes, without building them (for validation and plans). */
export function countSlices(start: Date, end: Date, sliceMs: number): number {
  const from = start.getTime();
  const to = end.getTime();
  if (!(to > from)) return 0;
  return Math.floor((to - 1) / sliceMs) - Math.floor(from / sliceMs) + 1;
}
