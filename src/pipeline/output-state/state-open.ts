// Reading a pipeline's state as a run opens it: the state object (or a fresh one), the journal entries
// written after it replayed in order, and the checks that decide whether this run may go on from it
// (the pipeline that owns the output, a rolling snapshot's replacement, the slice grid, --force, the
// pipeline's fingerprint). Those that need no plan a run makes before it asks the service anything,
// on what it read once under its lock.
import { ConfigError } from "../../errors.js";
import type { OutputStore, Slice } from "../../core/contracts.js";
import { readStateObject } from "./state-files.js";
import type { RunState } from "./state-schema.js";
import { applyEntry, journalPrefix, readJournal } from "./state-journal.js";
import type { StoredEntry } from "./state-journal.js";
import { applyForce } from "./state-force.js";
import type { ForcedWindow } from "./state-force.js";
import { checkSliceGrid } from "./slice-grid.js";
import { ownedByAnother } from "./state-owner.js";
import { replaceSnapshot } from "./state-snapshot.js";

export interface StateStoreOptions {
  store: OutputStore;
  path: string;
  pipeline: string;
  fingerprint: string;
  /**
   * What earlier versions computed as this pipeline's fingerprint (with the destination's location in
   * it): a state holding one of them is this pipeline's, and takes the current one.
   */
  earlierFingerprints?: readonly string[];
  /** Redo the slices of the forced window (all when no window): ignore them as committed. */
  force: boolean;
  /** The window `--force` applies to; slices committed outside it stay committed. */
  forceWindow?: ForcedWindow | undefined;
  /** The slices the run plans; one overlapping a committed slice of another id is refused. */
  planned?: readonly Slice[];
  /** The window is one rolling snapshot (a v1 time_range): its one planned slice replaces what the output holds. */
  snapshot?: boolean;
  /** Awaited before each write of the state; throws once the run may no longer write (the lock's fence). */
  fence?: () => Promise<void>;
  /** The state object and journal as the run read them under its lock; read from the store when absent. */
  stored?: StoredState;
}

/** The state as the output holds it: the state object's bytes (undefined: none) and its journal. */
export interface StoredState {
  bytes: Uint8Array | undefined;
  journal: StoredEntry[];
}

/** What the state's checks need before the run has a plan: no planned slices, nothing read yet. */
export type StateOptionsBeforePlan = Omit<StateStoreOptions, "planned" | "stored" | "fence">;

interface OpenedState {
  state: RunState;
  /** The journal objects read, not yet folded into the state object. */
  journal: string[];
  /**
   * Whether the state must be written whole before any entry: fresh, forced, resumed from a journal,
   * or changed as it was read (a fingerprint migrated, a snapshot replaced).
   */
  rewrite: boolean;
}

/** Reads the state object and its journal from the store, as they are now. */
export async function readStoredState(store: OutputStore, path: string): Promise<StoredState> {
  const bytes = await store.getObject(path);
  return { bytes, journal: await readJournal(store, journalPrefix(path)) };
}

/**
 * The state object (or a fresh one) with the journal entries after it replayed; throws OUTPUT_OWNED
 * when another pipeline wrote it. Each call builds its own: the entries are copied, not shared.
 */
function foldState(
  stored: StoredState,
  options: StateOptionsBeforePlan,
): { state: RunState; migrated: boolean } {
  const { bytes, journal } = stored;
  // Without a state object, entries are of a state moved away: nothing of them is replayed.
  const state: RunState =
    bytes === undefined
      ? {
          version: 1,
          pipeline: options.pipeline,
          fingerprint: options.fingerprint,
          journal_seq: journal.at(-1)?.seq ?? 0,
          slices: {},
          batches: {},
          superseded: {},
          rechecks: {},
          pending: {},
        }
      : readStateObject(bytes, `${options.store.location}/${options.path}`);
  if (state.pipeline !== options.pipeline)
    throw ownedByAnother(options.store.location, state.pipeline, options.pipeline);
  for (const { seq, entry } of journal) {
    if (seq <= state.journal_seq) continue;
    applyEntry(state, structuredClone(entry));
    state.journal_seq = seq;
  }
  const migrated = options.earlierFingerprints?.includes(state.fingerprint) === true;
  if (migrated) state.fingerprint = options.fingerprint;
  return { state, migrated };
}

/**
 * A --force redoes the forced window (refused over part of a changed output); without one, a changed
 * pipeline is refused.
 */
function checkForceOrChange(state: RunState, options: StateOptionsBeforePlan): void {
  const { location } = options.store;
  if (options.force) return applyForce(state, options.fingerprint, options.forceWindow, location);
  if (state.fingerprint === options.fingerprint) return;
  throw new ConfigError(
    `the pipeline changed since the output in ${location} was written (fields, filters, transforms or sinks); ` +
      "rerun with --force to rewrite every slice, or write to a new destination",
    [],
  );
}

/**
 * The refusals the state gives from the pipeline alone, before the run has a plan or has asked the
 * service anything: another pipeline's output, a changed pipeline, a --force over part of a changed
 * output. A rolling snapshot's --force is left to the open: its replacement, which needs the planned
 * slice, leaves nothing committed outside the forced window. Nothing is written.
 */
export function checkStateBeforePlan(stored: StoredState, options: StateOptionsBeforePlan): void {
  const { state } = foldState(stored, options);
  if (!options.force || options.snapshot !== true) checkForceOrChange(state, options);
}

/** Reads and checks the state a run goes on from; throws a ConfigError when the pipeline changed. */
export async function readRunState(options: StateStoreOptions): Promise<OpenedState> {
  const stored = options.stored ?? (await readStoredState(options.store, options.path));
  const { state, migrated } = foldState(stored, options);
  const snapshot = options.planned?.[0];
  const replaced =
    options.snapshot === true && options.planned?.length === 1 && snapshot !== undefined
      ? replaceSnapshot(state, snapshot.id)
      : false;
  checkSliceGrid(state, options.planned ?? [], options.store.location, options.force);
  checkForceOrChange(state, options);
  state.fingerprint = options.fingerprint;
  return {
    state,
    journal: stored.journal.map((entry) => entry.path),
    rewrite: stored.bytes === undefined || options.force || stored.journal.length > 0 || migrated || replaced,
  };
}
