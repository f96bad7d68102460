// What a killed process left behind, and which of it this run may remove: hidden temporary files,
// and the final files of a commit it left midway.
import type { Logger } from "../../logger.js";
import type { OutputStore } from "../../core/contracts.js";
import { manifestObjectPath, successMarkerPath } from "../output-state/manifest.js";
import type { Plan } from "../plan/plan.js";
import type { Shard } from "../plan/shard.js";
import { filesOfInterruptedCommit, stateObjectPath } from "../output-state/state-files.js";
import { journalPrefix } from "../output-state/state-journal.js";
import type { StateStore } from "../output-state/state.js";
import type { RemoveRecordedFile } from "./sink-runtime.js";

interface LeftoverSweep {
  /** Each sink's store, its sweep sparing the temporary files of runs that may still live. */
  stores: readonly OutputStore[];
  /** Removes a file the state records from its sink's store. */
  removeFile: RemoveRecordedFile;
  slices: Plan["slices"];
  state: StateStore;
  shard: Shard | undefined;
  log: Logger;
  /** Committed slices this run redoes (a re-check found their count changed, or they are open). */
  rechecked?: ReadonlySet<string>;
}

/**
 * A process killed mid-slice leaves hidden temporary files. They are this run's to remove when they
 * belong to a slice it is about to redo, or to the state and manifest it writes; leftovers of other
 * shards' slices are theirs (they may be running right now).
 */
export async function removeLeftovers(sweep: LeftoverSweep): Promise<void> {
  const { slices, state, shard, log, rechecked = new Set<string>() } = sweep;
  const redo = slices
    .map((plan) => plan.slice.id)
    .filter((id) => !state.isCommitted(id) || rechecked.has(id));
  const own = new Set([stateObjectPath(shard), manifestObjectPath(shard), successMarkerPath(shard)]);
  const journal = journalPrefix(stateObjectPath(shard));
  const owns = (path: string): boolean =>
    own.has(path) || path.startsWith(journal) || redo.some((id) => path.includes(id));
  for (const store of sweep.stores) {
    const removed = (await store.removeLeftovers?.(owns)) ?? [];
    if (removed.length > 0)
      log.info(
        { to: store.location, files: removed.length },
        "Removed temporary files an interrupted run left.",
      );
  }
  await removeInterruptedCommits(sweep.removeFile, redo, state, log);
}

/**
 * A commit killed between its first rename and the state's record of the slice left final files no
 * committed record holds (under new names when the path has `{run_id}`). The state recorded their
 * names before the renames; they are removed with the files the interrupted redo was replacing, and
 * the slice counts as not done. Swept: the slices this run redoes, and slices never committed (a
 * later window may not hold them, and nothing of theirs counts). A committed slice whose redo was
 * interrupted, outside the run, waits for the run that redoes it. The state is this run's (or this
 * shard's) alone, so no other run's slice is touched.
 */
export async function removeInterruptedCommits(
  removeFile: RemoveRecordedFile,
  sliceIds: readonly string[],
  state: StateStore,
  log: Logger,
): Promise<void> {
  const neverCommitted = Object.keys(state.state.pending).filter(
    (id) => state.state.slices[id] === undefined,
  );
  for (const id of new Set([...sliceIds, ...neverCommitted])) {
    if (state.state.pending[id] === undefined) continue;
    const files = filesOfInterruptedCommit(state.state, id);
    for (const file of files) await removeFile(file);
    await state.forgetInterrupted(id);
    log.info(
      { slice: id, files: files.length },
      "Removed the files of a commit an interrupted run left midway.",
    );
  }
}
