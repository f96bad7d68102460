// The state object's name, reading it, refusing what it cannot hold, and the files a commit left midway.
import { EtlError } from "../../errors.js";
import { shardSuffix } from "../plan/shard.js";
import type { Shard } from "../plan/shard.js";
import { parseState, STATE_DIRECTORY } from "./state-schema.js";
import type { BatchProgress, CommittedFile, IntendedFile, RunState } from "./state-schema.js";

/** The state's object name; shards keep their own. */
export function stateObjectPath(shard?: Shard): string {
  return `${STATE_DIRECTORY}/state${shardSuffix(shard)}.json`;
}

export function fileKey(file: IntendedFile): string {
  return `${file.sink}\u0000${file.path}`;
}

/** The files with each (sink, path) once, where it first appears. */
export function distinctFiles<F extends IntendedFile>(files: readonly F[]): F[] {
  const seen = new Set<string>();
  return files.filter((file) => !seen.has(fileKey(file)) && seen.add(fileKey(file)));
}

/** The state object from its bytes; `where` names it in the error. */
export function readStateObject(bytes: Uint8Array, where: string): RunState {
  try {
    // A view of the bytes, not a copy: the state of a long history is tens of megabytes.
    const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8");
    return parseState(JSON.parse(text));
  } catch (error) {
    throw new EtlError(
      "STATE_UNREADABLE",
      `the state ${where} is not a state this version wrote; move it away or run with --force`,
      { cause: error },
    );
  }
}

/** A change the state's schema refuses: it is not written, and the committed state stays readable. */
export function refused(what: string, cause: unknown): EtlError {
  return new EtlError(
    "STATE_REFUSED",
    `${what} is not something the run state can hold, so it was not written (the committed state is unchanged); report this with --debug output`,
    { cause },
  );
}

/** The files a batch export committed: its parts' files, then the merged ones. */
export function batchFiles(batch: Readonly<BatchProgress> | undefined): CommittedFile[] {
  return [...Object.values(batch?.parts ?? {}).flatMap((part) => part.files), ...(batch?.merged ?? [])];
}

/**
 * Files a commit of the slice left midway (the names it was renaming to), an earlier commit of it and
 * the pipeline before a --force left: a redo removes those it does not rewrite.
 */
export function previousFiles(state: Readonly<RunState>, sliceId: string): IntendedFile[] {
  return [
    ...(state.pending[sliceId] ?? []),
    ...(state.slices[sliceId]?.files ?? []),
    ...(state.superseded[sliceId] ?? []),
  ];
}

/**
 * The files a commit of the slice left midway that nothing committed accounts for: the names it was
 * renaming to, and the files of a committed or superseded record the interrupted redo was replacing.
 * Partitions and merged files a batch export committed are kept.
 */
export function filesOfInterruptedCommit(state: Readonly<RunState>, sliceId: string): IntendedFile[] {
  if (state.pending[sliceId] === undefined) return [];
  const kept = new Set(batchFiles(state.batches[sliceId]).map(fileKey));
  const orphans = distinctFiles(previousFiles(state, sliceId).filter((file) => !kept.has(fileKey(file))));
  return orphans.map(({ sink, path }) => ({ sink, path }));
}
