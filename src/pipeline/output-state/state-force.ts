// What `--force` does to the state it opens. The slices of the forced window count as not done, and
// their files are remembered (superseded) so their redo removes those it does not rewrite; slices
// committed outside the window stay committed. After a pipeline change, a force must cover every
// slice the output holds: a partial one would leave two pipelines' files side by side.
import { configErrorAt } from "../../errors.js";
import { batchFiles } from "./state-files.js";
import type { CommittedFile, RunState } from "./state-schema.js";

/** The window a `--force` redoes; a slice overlapping it is forced. */
export interface ForcedWindow {
  start: Date;
  end: Date;
}

function overlaps(slice: { start: string; end: string }, window: ForcedWindow | undefined): boolean {
  if (window === undefined) return true;
  return Date.parse(slice.start) < window.end.getTime() && Date.parse(slice.end) > window.start.getTime();
}

/** Every file the state knows for a slice: committed, superseded, and a batch export's progress. */
export function filesOf(state: RunState, id: string): CommittedFile[] {
  return [
    ...(state.slices[id]?.files ?? []),
    ...(state.superseded[id] ?? []),
    ...batchFiles(state.batches[id]),
  ];
}

export function applyForce(
  state: RunState,
  fingerprint: string,
  window: ForcedWindow | undefined,
  location: string,
): void {
  const outside = Object.entries(state.slices)
    .filter(([, slice]) => !overlaps(slice, window))
    .sort(([, a], [, b]) => a.start.localeCompare(b.start));
  const first = outside[0]?.[1];
  const last = outside.at(-1)?.[1];
  if (state.fingerprint !== fingerprint && first !== undefined && last !== undefined) {
    const message =
      `the pipeline changed since the output in ${location} was written, and ${outside.length} committed slice(s) ` +
      `from ${first.start} to ${last.end} lie outside the forced window: --force over part of the output would leave ` +
      "files of two pipelines side by side. Force every slice the output holds (--start/--end covering them), " +
      "or write to a new destination";
    throw configErrorAt("--force", message);
  }
  // A slice has no bounds in the state until committed: batch progress and superseded files of a
  // slice are forced with it, or whenever the force covers everything.
  const forced = new Set(
    [...Object.keys(state.slices), ...Object.keys(state.batches), ...Object.keys(state.superseded)].filter(
      (id) => {
        const slice = state.slices[id];
        return slice === undefined ? true : overlaps(slice, window);
      },
    ),
  );
  for (const id of forced) {
    const files = filesOf(state, id);
    if (files.length > 0) state.superseded[id] = files;
    delete state.slices[id];
    delete state.batches[id];
    delete state.rechecks[id];
  }
}
