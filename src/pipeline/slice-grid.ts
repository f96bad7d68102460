// A slice is known to the state by its id (its start), so a planned slice is matched with what was
// committed by id alone. A window cut on another grid — a --start or --end inside a committed slice,
// or a slice length changed since the output was written — plans slices whose ids differ from the
// committed ones they overlap: exporting them would write those records a second time beside the
// committed files (and a --force would leave the old files of ids it does not redo); a --force over
// part of a committed slice would drop the rest of it. Such a run is refused before anything is written.
import { ConfigError } from "../errors.js";
import type { Slice } from "./contracts.js";
import type { RunState } from "./state-schema.js";

function overlaps(slice: Pick<Slice, "start" | "end">, committed: { start: string; end: string }): boolean {
  return (
    Date.parse(committed.start) < slice.end.getTime() && Date.parse(committed.end) > slice.start.getTime()
  );
}

/** Whether a forced slice replaces only part of what its committed namesake holds. */
function narrows(slice: Pick<Slice, "start" | "end">, committed: { start: string; end: string }): boolean {
  return (
    Date.parse(committed.start) < slice.start.getTime() || Date.parse(committed.end) > slice.end.getTime()
  );
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
  for (const slice of planned) {
    for (const [id, committed] of Object.entries(state.slices)) {
      if (!overlaps(slice, committed)) continue;
      if (id === slice.id && !(force && narrows(slice, committed))) continue;
      const effect =
        id === slice.id
          ? "forcing it would remove the records of the rest of that slice from the output"
          : "exporting it would write those records twice";
      const message =
        `slice ${slice.id} (${slice.start.toISOString()} to ${slice.end.toISOString()}) overlaps slice ${id} ` +
        `(${committed.start} to ${committed.end}) already committed in ${location}: ${effect}. Start and end ` +
        "the window (--start/--end, --force included) on the boundaries of the committed slices, and keep the " +
        "slice length the output was written with (or write to a new destination)";
      throw new ConfigError(message, [{ path: "--start/--end", message }]);
    }
  }
}
