// A rolling snapshot window (a v1 time_range such as billing's `now-30d/d`) is one slice whose start
// moves with the day, so each day's run plans a slice of a new id over most of the records the
// output's slice holds. Exporting it beside the old one would count those records twice; refusing it
// would stop a daily job on its second day. The new slice replaces the output's snapshot instead:
// every file the state knows is taken over by the planned slice as superseded, which keeps them in
// place (and in the manifest) until the new snapshot commits, then removes those it did not rewrite —
// as a --force does. The service's answer alone never removes the old snapshot: a run that stops
// before its commit leaves it whole, and the next run replaces it.
import { distinctFiles } from "./state-files.js";
import { filesOf } from "./state-force.js";
import type { CommittedFile, RunState } from "./state-schema.js";

/**
 * Makes `snapshotId` the one slice the state accounts the output's files to: the slices committed
 * before (of any id, its own included, so every run redoes it) count as not done, and their files
 * and those of any batch progress of another id become the snapshot's superseded files. A batch
 * export of the snapshot itself stays, so a stopped run resumes it. Returns whether anything moved.
 */
export function replaceSnapshot(state: RunState, snapshotId: string): boolean {
  const others = new Set(
    [...Object.keys(state.slices), ...Object.keys(state.superseded), ...Object.keys(state.batches)].filter(
      (id) => id !== snapshotId,
    ),
  );
  if (others.size === 0 && state.slices[snapshotId] === undefined) return false;
  const found: CommittedFile[] = [...(state.superseded[snapshotId] ?? [])];
  for (const id of [snapshotId, ...others]) {
    found.push(...(id === snapshotId ? (state.slices[id]?.files ?? []) : filesOf(state, id)));
    delete state.slices[id];
    delete state.rechecks[id];
    if (id !== snapshotId) {
      delete state.superseded[id];
      delete state.batches[id];
    }
  }
  const taken = distinctFiles(found);
  if (taken.length > 0) state.superseded[snapshotId] = taken;
  else delete state.superseded[snapshotId];
  return true;
}
