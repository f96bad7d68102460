// The checkpoint of a pipeline: which slices are committed (with their files and counts) and the
// batch exports in progress, kept beside the output so an ephemeral container can resume.
import { z } from "zod";
import { ConfigError, EtlError } from "../errors.js";
import type { OutputStore } from "./contracts.js";
import { shardSuffix } from "./shard.js";
import type { Shard } from "./shard.js";

export const STATE_DIRECTORY = "_mdq-export";

const fileSchema = z.object({
  sink: z.number().int(),
  path: z.string(),
  rows: z.number().int(),
  bytes: z.number().int(),
  sha256: z.string(),
});

const sliceSchema = z.object({
  start: z.string(),
  end: z.string(),
  committed_at: z.string(),
  read: z.number().int(),
  expected: z.number().int().nullable(),
  duplicates: z.number().int(),
  files: z.array(fileSchema),
  /** Written while the service may still be indexing it (after `now − settle`): redone by the next run. */
  open: z.literal(true).optional(),
});

/** A part of a slice (a batch partition) committed before the slice as a whole. */
const partSchema = z.object({
  read: z.number().int(),
  expected: z.number().int().nullable(),
  duplicates: z.number().int(),
  files: z.array(fileSchema),
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

/** A re-check that found the service's count of a committed slice changed. */
const recheckSchema = z.object({
  checked_at: z.string(),
  run_id: z.string(),
  /** Records the slice held when it was committed. */
  committed: z.number().int(),
  /** Records the service counted at the re-check. */
  service: z.number().int(),
  /** What the re-check did: exported the slice again, or kept its files (a decrease); absent: exported. */
  action: z.enum(["exported", "kept"]).optional(),
});

const stateSchema = z.object({
  version: z.literal(1),
  pipeline: z.string(),
  fingerprint: z.string(),
  slices: z.record(z.string(), sliceSchema),
  batches: z.record(z.string(), batchSchema).default({}),
  /**
   * Files an earlier pipeline (before a `--force`) wrote for slices not yet redone: they count as
   * nothing done, and the redo of the slice removes those it does not rewrite.
   */
  superseded: z.record(z.string(), z.array(fileSchema)).default({}),
  /** Per slice, every re-check that found a difference, oldest first: the history of re-exports. */
  rechecks: z.record(z.string(), z.array(recheckSchema)).default({}),
});

export type RunState = z.infer<typeof stateSchema>;
export type CommittedSlice = z.infer<typeof sliceSchema>;
export type CommittedFile = z.infer<typeof fileSchema>;
export type BatchProgress = z.infer<typeof batchSchema>;
export type CommittedPart = z.infer<typeof partSchema>;
export type Recheck = z.infer<typeof recheckSchema>;

/** The state's object name; shards keep their own. */
export function stateObjectPath(shard?: Shard): string {
  return `${STATE_DIRECTORY}/state${shardSuffix(shard)}.json`;
}

export interface StateStoreOptions {
  store: OutputStore;
  path: string;
  pipeline: string;
  fingerprint: string;
  /** Redo everything: ignore committed slices and a changed fingerprint. */
  force: boolean;
}

/**
 * Loads and saves the run state. Writes are serialised: slices commit concurrently, and each save
 * must contain every earlier commit.
 */
export class StateStore {
  #state: RunState;
  #writing: Promise<void> = Promise.resolve();
  readonly #options: StateStoreOptions;

  private constructor(state: RunState, options: StateStoreOptions) {
    this.#state = state;
    this.#options = options;
  }

  static async open(options: StateStoreOptions): Promise<StateStore> {
    const fresh: RunState = {
      version: 1,
      pipeline: options.pipeline,
      fingerprint: options.fingerprint,
      slices: {},
      batches: {},
      superseded: {},
      rechecks: {},
    };
    const bytes = await options.store.getObject(options.path);
    if (bytes === undefined) return new StateStore(fresh, options);
    let previous: RunState;
    try {
      previous = stateSchema.parse(JSON.parse(Buffer.from(bytes).toString("utf8")));
    } catch (error) {
      throw new EtlError(
        "STATE_UNREADABLE",
        `the state ${options.store.location}/${options.path} is not a state this version wrote; move it away or run with --force`,
        { cause: error },
      );
    }
    if (options.force) {
      // Nothing of the earlier output counts as done (a stop midway must not leave old slices looking
      // committed under the new fingerprint), but its files are remembered so the redo removes them.
      const superseded = { ...previous.superseded };
      for (const [id, slice] of Object.entries(previous.slices))
        superseded[id] = [...(superseded[id] ?? []), ...slice.files];
      return new StateStore({ ...fresh, superseded }, options);
    }
    if (previous.fingerprint !== options.fingerprint) {
      throw new ConfigError(
        `the pipeline changed since the output in ${options.store.location} was written (fields, filters, transforms or sinks); ` +
          "rerun with --force to rewrite every slice, or write to a new destination",
        [],
      );
    }
    return new StateStore(previous, options);
  }

  get state(): Readonly<RunState> {
    return this.#state;
  }

  /** Whether a slice can be skipped: committed by an earlier run, and not forced. */
  isCommitted(sliceId: string): boolean {
    return this.#state.slices[sliceId] !== undefined;
  }

  /** Files recorded for a slice by an earlier commit, or by the pipeline before a --force (to replace on redo). */
  previousFiles(sliceId: string): readonly CommittedFile[] {
    return [...(this.#state.slices[sliceId]?.files ?? []), ...(this.#state.superseded[sliceId] ?? [])];
  }

  async commitSlice(sliceId: string, slice: CommittedSlice): Promise<void> {
    this.#state.slices[sliceId] = slice;
    delete this.#state.superseded[sliceId];
    delete this.#state.batches[sliceId];
    await this.save();
  }

  /** The batch tokens an earlier attempt or run at this slice obtained, by request number. */
  batchTokens(sliceId: string): Readonly<Record<string, string>> {
    return this.#state.batches[sliceId]?.tokens ?? {};
  }

  async recordBatchToken(sliceId: string, request: string, token: string): Promise<void> {
    const progress = (this.#state.batches[sliceId] ??= {
      tokens: {},
      created_at: new Date().toISOString(),
      parts: {},
    });
    progress.tokens[request] = token;
    await this.save();
  }

  /** Parts of a slice committed before the slice itself. */
  committedParts(sliceId: string): Readonly<Record<string, CommittedPart>> {
    return this.#state.batches[sliceId]?.parts ?? {};
  }

  async commitPart(sliceId: string, partId: string, part: CommittedPart): Promise<void> {
    const progress = (this.#state.batches[sliceId] ??= {
      tokens: {},
      created_at: new Date().toISOString(),
      parts: {},
    });
    progress.parts[partId] = part;
    await this.save();
  }

  /** Records that a re-check found the slice changed; the slice is redone next. */
  async recordRecheck(sliceId: string, recheck: Recheck): Promise<void> {
    (this.#state.rechecks[sliceId] ??= []).push(recheck);
    await this.save();
  }

  /** The merged files of a slice whose partitions are all in, once the merge is committed. */
  mergedFiles(sliceId: string): readonly CommittedFile[] | undefined {
    return this.#state.batches[sliceId]?.merged;
  }

  async recordMerge(sliceId: string, files: CommittedFile[]): Promise<void> {
    const progress = (this.#state.batches[sliceId] ??= {
      tokens: {},
      created_at: new Date().toISOString(),
      parts: {},
    });
    progress.merged = files;
    await this.save();
  }

  save(): Promise<void> {
    const text = `${JSON.stringify({ ...this.#state, fingerprint: this.#options.fingerprint }, null, 2)}\n`;
    this.#writing = this.#writing.then(() => this.#options.store.putObject(this.#options.path, text));
    return this.#writing;
  }
}
