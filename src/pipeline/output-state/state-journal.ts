// The state's journal: one small object per change of a slice, so a commit writes what it changed and
// not the whole history. The state object holds everything up to `journal_seq`; a run replays the
// later entries, writes the state object again (compaction) and removes the entries it folded in.
import pLimit from "p-limit";
import { EtlError } from "../../errors.js";
import type { OutputStore } from "../../core/contracts.js";
import { journalEntrySchema, PER_SLICE_KEYS, RECHECK_HISTORY_LIMIT } from "./state-schema.js";
import type { JournalEntry, RunState } from "./state-schema.js";

/** Reads and deletes of journal objects in flight at once (they are small; S3 answers each in ms). */
const JOURNAL_IO_CONCURRENCY = 16;

/** `_mdq-export/state.json` → `_mdq-export/state.journal/`; a shard's state has its own journal. */
export function journalPrefix(statePath: string): string {
  return `${statePath.replace(/\.json$/, "")}.journal/`;
}

/** Entries sort by name in the order they were written. */
export function journalEntryPath(prefix: string, seq: number): string {
  return `${prefix}${String(seq).padStart(12, "0")}.json`;
}

function seqOf(path: string): number {
  return Number(/(\d+)\.json$/.exec(path)?.[1] ?? Number.NaN);
}

export interface StoredEntry {
  path: string;
  seq: number;
  entry: JournalEntry;
}

/** Every journal object under `prefix`, oldest first, each checked against the journal's schema. */
export async function readJournal(store: OutputStore, prefix: string): Promise<StoredEntry[]> {
  const objects = (await store.list(prefix)).filter((object) => Number.isSafeInteger(seqOf(object.path)));
  const limit = pLimit(JOURNAL_IO_CONCURRENCY);
  const entries = await Promise.all(
    objects.map((object) =>
      limit(async (): Promise<StoredEntry | undefined> => {
        const bytes = await store.getObject(object.path);
        // Removed since the listing: a compaction of an earlier run had already folded it in.
        if (bytes === undefined) return undefined;
        try {
          const entry = journalEntrySchema.parse(JSON.parse(Buffer.from(bytes).toString("utf8")));
          return { path: object.path, seq: seqOf(object.path), entry };
        } catch (error) {
          throw new EtlError(
            "STATE_UNREADABLE",
            `the state journal entry ${store.location}/${object.path} is not one this version wrote; move the ${prefix} folder and the state away or run with --force`,
            { cause: error },
          );
        }
      }),
    ),
  );
  return entries.filter((entry) => entry !== undefined).sort((a, b) => a.seq - b.seq);
}

/** Removes journal objects already folded into the state object; any order will do (see `journal_seq`). */
export async function removeJournalEntries(store: OutputStore, paths: readonly string[]): Promise<void> {
  const limit = pLimit(JOURNAL_IO_CONCURRENCY);
  await Promise.all(paths.map((path) => limit(() => store.deleteObject(path))));
}

/** A slice's record in every map of the state, as a journal entry holds it. */
export function entryOf(state: RunState, sliceId: string): JournalEntry {
  const values: JournalEntry["values"] = {};
  for (const key of PER_SLICE_KEYS) {
    const value = state[key][sliceId];
    if (value !== undefined) Object.assign(values, { [key]: value });
  }
  return { version: 1, slice: sliceId, values };
}

/** Sets a slice's record in every map from an entry; a map the entry leaves out no longer has the slice. */
export function applyEntry(state: RunState, entry: JournalEntry): void {
  for (const key of PER_SLICE_KEYS) {
    const value = entry.values[key];
    if (value === undefined) delete state[key][entry.slice];
    else Object.assign(state[key], { [entry.slice]: value });
  }
}

/** The re-check history a state keeps: the latest entries of each slice. */
export function boundRechecks(state: RunState): void {
  for (const [id, history] of Object.entries(state.rechecks)) {
    if (history.length > RECHECK_HISTORY_LIMIT) state.rechecks[id] = history.slice(-RECHECK_HISTORY_LIMIT);
  }
}
