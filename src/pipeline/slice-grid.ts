// A slice is known to the state by its id (its start), so a planned slice is matched with what was
// committed by id alone. A window cut on another grid — a --start or --end inside a committed slice,
// or a slice length changed since the output was written — plans slices whose ids differ from the
// committed ones they overlap: exporting them would write those records a second time beside the
// committed files (and a --force would leave the old files of ids it does not redo). Such a run is
// refused before anything is written.
import { ConfigError } from "../errors.js";
import type { Slice } from "./contracts.js";
import type { RunState } from "./state-schema.js";

function overlaps(slice: Pick<Slice, "start" | "end">, committed: { start: string; end: string }): boolean {
  return (
    Date.parse(committed.start) < slice.end.getTime() && Date.parse(committed.end) > slice.start.getTime()
  );
}

/**
 * Throws when a planned slice overlaps a committed slice of another id.
 * @example checkSliceGrid(state, [{ index: 0, id: "20261120T003000Z", start, end }], "/out") // throws
 */
export function checkSliceGrid(state: Readonly<RunState>, planned: readonly Slice[], location: string): void {
  for (const slice of planned) {
    for (const [id, committed] of Object.entries(state.slices)) {
      if (id === slice.id || !overlaps(slice, committed)) continue;
      const message =
        `slice ${slice.id} (${slice.start.toISOString()} to ${slice.end.toISOString()}) overlaps slice ${id} ` +
        `(${committed.start} to ${committed.end}) already committed in ${location}: exporting it would write ` +
        "those records twice. Start and end the window (--start/--end, --force included) on the boundaries of " +
        "the committed slices, and keep the slice length the output was written with (or write to a new destination)";
      throw new ConfigError(message, [{ path: "--start/--end", message }]);
    }
  }
}
