// A slice is known to the state by its id (its start), so a planned slice is matched with what was
// committed by id alone. A window cut on another grid — a --start or --end inside a committed slice,
// or a slice length changed since the output was written — plans slices whose ids differ from the
// committed ones they overlap: exporting them would write those records a second time beside the
// committed files (and a --force would leave the old files of ids it does not redo); a --force over
// part of a committed slice would drop the rest of it. Such a run is refused before anything is written.
import { configErrorAt } from "../../errors.js";
import type { Slice } from "../../core/contracts.js";
import type { RunState } from "./state-schema.js";

interface CommittedRange {
  id: string;
  start: number;
  end: number;
}

/** Whether a forced slice replaces only part of what its committed namesake holds. */
function narrows(slice: Pick<Slice, "start" | "end">, committed: CommittedRange): boolean {
  return committed.start < slice.start.getTime() || committed.end > slice.end.getTime();
}

/** Committed slices by start, each with the latest end up to it, so a lookup stops early. */
function byStart(state: Readonly<RunState>): { ranges: CommittedRange[]; reach: number[] } {
  const ranges = Object.entries(state.slices)
    .map(([id, slice]) => ({ id, start: Date.parse(slice.start), end: Date.parse(slice.end) }))
    .sort((a, b) => a.start - b.start);
  const reach: number[] = [];
  for (const range of ranges) reach.push(Math.max(reach.at(-1) ?? -Infinity, range.end));
  return { ranges, reach };
}

/** The committed slices overlapping one planned slice (a backfill checks tens of thousands against as many). */
function overlapping(index: { ranges: CommittedRange[]; reach: number[] }, slice: Slice): CommittedRange[] {
  const { ranges, reach } = index;
  let low = 0;
  let high = ranges.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((ranges[middle]?.start ?? Infinity) < slice.end.getTime()) low = middle + 1;
    else high = middle;
  }
  const found: CommittedRange[] = [];
  for (let at = low - 1; at >= 0 && (reach[at] ?? -Infinity) > slice.start.getTime(); at--) {
    const range = ranges[at];
    if (range !== undefined && range.end > slice.start.getTime()) found.push(range);
  }
  return found;
}

/**
 * Throws when a planned slice overlaps a committed slice of another id, or (under --force) would
 * replace a committed slice with a narrower one: the records of the rest would leave the output.
 * @example checkSliceGrid(state, [{ index: 0, id: "20261120T003000Z", start, end }], "/out", false) // throws
 */
export function checkSliceGrid(
  state: Readonly<RunState>,
  planned: readonly Slice[],
  location: string,
  force: boolean,
): void {
  if (planned.length === 0) return;
  const index = byStart(state);
  for (const slice of planned) {
    for (const committed of overlapping(index, slice)) {
      if (committed.id === slice.id && !(force && narrows(slice, committed))) continue;
      const effect =
        committed.id === slice.id
          ? "forcing it would remove the records of the rest of that slice from the output"
          : "exporting it would write those records twice";
      const range = `${new Date(committed.start).toISOString()} to ${new Date(committed.end).toISOString()}`;
      const message =
        `slice ${slice.id} (${slice.start.toISOString()} to ${slice.end.toISOString()}) overlaps slice ${committed.id} ` +
        `(${range}) already committed in ${location}: ${effect}. Start and end ` +
        "the window (--start/--end, --force included) on the boundaries of the committed slices, and keep the " +
        "slice length the output was written with (or write to a new destination)";
      throw configErrorAt("--start/--end", message);
    }
  }
}
