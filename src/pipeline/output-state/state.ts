// The checkpoint of a pipeline: which slices are committed (with their files and counts) and the
// batch exports in progress, kept beside the output so an ephemeral container can resume. A change
// writes a journal entry of the one slice it changed (state-journal.ts); the whole state object is
// written only when a run opens or ends, or every JOURNAL_COMPACT_EVERY entries.
import { journalEntrySchema, RECHECK_HISTORY_LIMIT } from "./state-schema.js";
import { distinctFiles, refused } from "./state-files.js";
import type {
  BatchProgress,
  CommittedFile,
  CommittedPart,
  CommittedSlice,
  IntendedFile,
  Recheck,
  RunState,
} from "./state-schema.js";
import {
  applyEntry,
  boundRechecks,
  entryOf,
  journalEntryPath,
  journalPrefix,
  removeJournalEntries,
} from "./state-journal.js";
import { reachedCommitStep } from "../../core/test-hook.js";
import { readRunState } from "./state-open.js";
import type { StateStoreOptions } from "./state-open.js";

/** Journal entries after which a run folds them into the state object, so a resume replays few. */
const JOURNAL_COMPACT_EVERY = 1000;

/** Committed by an earlier run, with no commit of it left midway. */
const committedIn = (state: Readonly<RunState>, sliceId: string): boolean =>
  state.slices[sliceId] !== undefined && state.pending[sliceId] === undefined;

/**
 * Loads and saves the run state. Writes are serialised: slices commit concurrently, and each entry
 * must follow every earlier one.
 */
export class StateStore {
  #state: RunState;
  #writing: Promise<void> = Promise.resolve();
  /** Journal objects not yet folded into the state object. */
  #journal: string[];
  /** Entries since the state object was last written (or scheduled to be). */
  #sinceSave = 0;
  readonly #prefix: string;
  readonly #options: StateStoreOptions;

  private constructor(state: RunState, journal: string[], options: StateStoreOptions) {
    this.#state = state;
    this.#journal = journal;
    this.#prefix = journalPrefix(options.path);
    this.#options = options;
  }

  static async open(options: StateStoreOptions): Promise<StateStore> {
    const read = await readRunState(options);
    // What was read before is folded in now; the store does not keep it for the run.
    const { stored: _folded, ...kept } = options;
    const store = new StateStore(read.state, read.journal, kept);
    // A fresh, forced or resumed state is written whole now: later entries then always follow it.
    if (read.rewrite) await store.save();
    return store;
  }

  /**
   * Which slices `open` would find committed, read without writing anything: what a run looks at
   * before it has decided it may write (`committedInOutput`, destinations.ts).
   */
  static async peekCommitted(options: StateStoreOptions): Promise<(sliceId: string) => boolean> {
    const { state } = await readRunState(options);
    return (sliceId) => committedIn(state, sliceId);
  }

  get state(): Readonly<RunState> {
    return this.#state;
  }

  /** Whether a slice can be skipped: committed by an earlier run, not forced, and no commit left midway. */
  isCommitted(sliceId: string): boolean {
    return committedIn(this.#state, sliceId);
  }

  /** Records the final names a commit of the slice (or of one of its parts) is about to rename to. */
  recordIntent(sliceId: string, files: readonly IntendedFile[]): Promise<void> {
    return this.#change(sliceId, () => {
      const intended = distinctFiles([...(this.#state.pending[sliceId] ?? []), ...files]);
      this.#state.pending[sliceId] = intended.map(({ sink, path }) => ({ sink, path }));
    });
  }

  /** After `filesOfInterruptedCommit` are removed: the slice is not committed, and its batch progress stays. */
  forgetInterrupted(sliceId: string): Promise<void> {
    return this.#change(sliceId, () => {
      delete this.#state.pending[sliceId];
      delete this.#state.slices[sliceId];
      delete this.#state.superseded[sliceId];
    });
  }

  commitSlice(sliceId: string, slice: CommittedSlice): Promise<void> {
    return this.#change(sliceId, () => {
      this.#state.slices[sliceId] = slice;
      delete this.#state.superseded[sliceId];
      delete this.#state.batches[sliceId];
      delete this.#state.pending[sliceId];
    });
  }

  /**
   * What earlier attempts or runs of a batch-exported slice kept: the batch tokens they obtained (by
   * request number), the parts committed before the slice itself, and the merged files once the
   * merge of all its partitions is committed.
   */
  batchProgress(sliceId: string): Readonly<BatchProgress> | undefined {
    return this.#state.batches[sliceId];
  }

  #batch(sliceId: string): BatchProgress {
    return (this.#state.batches[sliceId] ??= { tokens: {}, created_at: new Date().toISOString(), parts: {} });
  }

  recordBatchToken(sliceId: string, request: string, token: string): Promise<void> {
    return this.#change(sliceId, () => {
      this.#batch(sliceId).tokens[request] = token;
    });
  }

  commitPart(sliceId: string, partId: string, part: CommittedPart): Promise<void> {
    return this.#change(sliceId, () => {
      this.#batch(sliceId).parts[partId] = part;
    });
  }

  /** Records that a re-check found the slice changed; the slice is redone next. The latest few are kept. */
  recordRecheck(sliceId: string, recheck: Recheck): Promise<void> {
    return this.#change(sliceId, () => {
      this.#state.rechecks[sliceId] = [...(this.#state.rechecks[sliceId] ?? []), recheck].slice(
        -RECHECK_HISTORY_LIMIT,
      );
    });
  }

  recordMerge(sliceId: string, files: CommittedFile[]): Promise<void> {
    return this.#change(sliceId, () => {
      this.#batch(sliceId).merged = files;
    });
  }

  /**
   * Changes one slice's record and writes it whole as the next journal entry, once the schema accepts
   * it; a change the schema refuses is undone, so no later write (nor the compaction) carries it.
   */
  #change(sliceId: string, change: () => void): Promise<void> {
    const before = structuredClone(entryOf(this.#state, sliceId));
    change();
    const checked = journalEntrySchema.safeParse(entryOf(this.#state, sliceId));
    if (!checked.success) {
      applyEntry(this.#state, before);
      return Promise.reject(refused(`slice ${sliceId}`, checked.error));
    }
    const seq = ++this.#state.journal_seq;
    const path = journalEntryPath(this.#prefix, seq);
    const text = JSON.stringify(checked.data);
    this.#writing = this.#writing.then(async () => {
      await this.#put(path, text);
      this.#journal.push(path);
      reachedCommitStep("state-entry");
    });
    const written = this.#writing;
    // A failed compaction leaves the chain failed: the next write reports it.
    if (++this.#sinceSave >= JOURNAL_COMPACT_EVERY) void this.save().catch(() => undefined);
    return written;
  }

  /**
   * Writes the whole state object, then removes the journal entries it now holds (compaction). Any
   * interleaving of a crash leaves entries at most up to `journal_seq`, which a resume skips. The
   * object is not checked again as a whole: it was when read, and every change since, slice by slice,
   * before its journal entry was written.
   */
  save(): Promise<void> {
    this.#sinceSave = 0;
    this.#writing = this.#writing.then(async () => {
      boundRechecks(this.#state);
      const folded = this.#journal;
      this.#journal = [];
      await this.#put(this.#options.path, `${JSON.stringify(this.#state)}\n`);
      reachedCommitStep("state-compacted");
      await removeJournalEntries(this.#options.store, folded);
    });
    return this.#writing;
  }

  /** Folds this run's journal entries into the state object, when there are any (the end of a run). */
  async compact(): Promise<void> {
    await this.#writing;
    if (this.#journal.length > 0 || this.#sinceSave > 0) await this.save();
  }

  /** Every write of the state, entry or whole object, passes here, behind the lock's fence. */
  async #put(path: string, text: string): Promise<void> {
    await this.#options.fence?.();
    await this.#options.store.putObject(path, text);
  }
}
