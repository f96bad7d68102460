// The shape of the run state and of its journal entries: the one gate for everything the state holds.
// What a write would put there is checked against it first, so nothing written is refused when read.
import { z } from "zod";

export const STATE_DIRECTORY = "_mdq-export";

/** Re-checks kept per slice: the latest ones, so the state does not grow with every run. */
export const RECHECK_HISTORY_LIMIT = 20;

/** A file about to be renamed to its final name: recorded first, so a crash cannot leave it unknown. */
const intendedFileSchema = z.object({
  sink: z.number().int(),
  path: z.string(),
});

const fileSchema = z.object({
  ...intendedFileSchema.shape,
  rows: z.number().int(),
  bytes: z.number().int(),
  sha256: z.string(),
  /** Lone surrogates written as U+FFFD in the file (docs/sinks.md); absent: none. */
  replaced_surrogates: z.number().int().positive().optional(),
});

/** A part of a slice (a batch partition) committed before the slice as a whole. */
const partSchema = z.object({
  read: z.number().int(),
  expected: z.number().int().nullable(),
  duplicates: z.number().int(),
  files: z.array(fileSchema),
});

const sliceSchema = z.object({
  start: z.string(),
  end: z.string(),
  committed_at: z.string(),
  ...partSchema.shape,
  /** Written while the service may still be indexing it (after `now − settle`): redone by the next run. */
  open: z.literal(true).optional(),
});

const batchSchema = z.object({
  /** The batch token of each batch request of the slice (one per app_type), by request number. */
  tokens: z.record(z.string(), z.string()),
  created_at: z.string(),
  /** Partitions already downloaded, written and committed, by part id. */
  parts: z.record(z.string(), partSchema).default({}),
  /** The slice's files once the partitions' files are merged; the partition files are then removed. */
  merged: z.array(fileSchema).optional(),
});

/** A re-check that found the service's count of a committed slice changed, so the slice was redone. */
export const recheckSchema = z.object({
  checked_at: z.string(),
  run_id: z.string(),
  /** Records the slice held when it was committed. */
  committed: z.number().int(),
  /** Records the service counted at the re-check. */
  service: z.number().int(),
  /** What the re-check did: exported the slice again, or kept its files (a decrease); absent: exported. */
  action: z.enum(["exported", "kept"]).optional(),
});

/**
 * Everything the state holds about one slice, map by map; an absent key is absent from that map. A
 * new per-slice map of the state goes here (and in the state's header), so journal entries carry it.
 */
const sliceEntriesShape = {
  slices: sliceSchema,
  batches: batchSchema,
  /**
   * Files an earlier pipeline (before a `--force`) wrote for slices not yet redone: they count as
   * nothing done, and the redo of the slice removes those it does not rewrite.
   */
  superseded: z.array(fileSchema),
  /** Re-checks that found a difference, oldest first: the latest RECHECK_HISTORY_LIMIT re-exports. */
  rechecks: z.array(recheckSchema),
  /**
   * Final names of files a commit of the slice was about to rename when it last wrote the state: a
   * resume removes those the slice's committed record does not hold (see docs/operations.md).
   */
  pending: z.array(intendedFileSchema),
};

type PerSliceKey = keyof typeof sliceEntriesShape;
export const PER_SLICE_KEYS = Object.keys(sliceEntriesShape) as PerSliceKey[];

const uncheckedRecords = z.record(z.string(), z.unknown());

/** The state object with its per-slice maps unchecked: each record is checked on its own below. */
const stateHeaderSchema = z.object({
  version: z.literal(1),
  pipeline: z.string(),
  fingerprint: z.string(),
  /** The last journal entry folded into this object: entries up to it are not replayed again. */
  journal_seq: z.number().int().nonnegative().default(0),
  slices: uncheckedRecords,
  batches: uncheckedRecords.default({}),
  superseded: uncheckedRecords.default({}),
  rechecks: uncheckedRecords.default({}),
  pending: uncheckedRecords.default({}),
});

/** The state: its header, and each per-slice map of `sliceEntriesShape` by slice id. */
export type RunState = Omit<z.infer<typeof stateHeaderSchema>, PerSliceKey> & {
  [Key in PerSliceKey]: Record<string, z.infer<(typeof sliceEntriesShape)[Key]>>;
};

/**
 * Checks a parsed state object one slice record at a time, dropping each raw
 * record once checked: a state of 100,000 slices is never held twice over.
 */
export function parseState(raw: unknown): RunState {
  const header = stateHeaderSchema.parse(raw);
  const source = raw as Partial<Record<PerSliceKey, Record<string, unknown>>>;
  for (const key of PER_SLICE_KEYS) {
    const checked: Record<string, unknown> = header[key];
    const original = source[key];
    for (const id of Object.keys(checked)) {
      checked[id] = sliceEntriesShape[key].parse(checked[id]);
      if (original !== undefined) delete original[id];
    }
  }
  return header as RunState;
}

/** One journal object: a slice's whole record after a change, so replaying the latest entries is exact. */
export const journalEntrySchema = z.object({
  version: z.literal(1),
  slice: z.string(),
  /** A map of `sliceEntriesShape` the slice is absent from is absent here. */
  values: z.object(sliceEntriesShape).partial(),
});

export type JournalEntry = z.infer<typeof journalEntrySchema>;
export type CommittedSlice = z.infer<typeof sliceSchema>;
export type CommittedFile = z.infer<typeof fileSchema>;
export type IntendedFile = z.infer<typeof intendedFileSchema>;
export type BatchProgress = z.infer<typeof batchSchema>;
export type CommittedPart = z.infer<typeof partSchema>;
export type Recheck = z.infer<typeof recheckSchema>;
