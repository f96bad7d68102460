// Merges the files a batch export's partitions wrote into the slice's own files: one per partition
// path (more only when the rolling limits ask). Partitions still commit one by one, so a stopped run
// resumes per partition; the merge runs once they are all in, and is recorded before the partition
// files are removed, so a crash at any point leaves either the partitions or the merged files.
import type { RecordBatch, Sink, Slice, SliceContext, SliceOutput } from "../../core/contracts.js";
import type { Format } from "../../formats/format.js";
import type { FileJoin } from "../../sinks/file-join.js";
import { commitOutputs } from "../output-state/commit-outputs.js";
import type { RecordIntent } from "../output-state/commit-outputs.js";
import type { CommittedFile } from "../output-state/state.js";
import { recordedFileRemover, sinkOf } from "./sink-runtime.js";
import type { SinkRuntime } from "./sink-runtime.js";
import { ERROR_CODES, hasCode, SinkError } from "../../errors.js";

/**
 * One sink of the merge: fresh, writing under the slice's own names, and its join when it has one. Its
 * rows are the partition files' rows, already under the output's column names (a `snake_case` sink's
 * `workload_state`), so it writes them as they are and its path template reads the names the paged
 * path's rows carry: a merged slice lands in the files a paged one would.
 */
export interface MergeSink {
  /** The sink's position in the pipeline, as its committed files name it. */
  index: number;
  write: Sink;
  /** The sink's files joined as bytes into the slice's file, when its format and paths allow. */
  join: FileJoin | undefined;
}

/** What the composition gives the merge: reading a committed file back, and fresh sinks. */
export interface PartMerge {
  /** The rows of a committed file of a sink, in the order they were written. */
  readFile(file: CommittedFile, signal: AbortSignal): AsyncIterable<RecordBatch>;
  /** The bytes of a committed file of a sink. */
  openFile(file: CommittedFile): Promise<AsyncIterable<Uint8Array>>;
  /** Fresh sinks, one per pipeline sink. */
  sinks(): readonly MergeSink[];
  deleteFile(file: CommittedFile): Promise<void>;
}

/** Reads committed files back through their format, writes through fresh sinks, deletes from their store. */
export function createPartMerge(sinks: readonly SinkRuntime[]): PartMerge {
  return {
    sinks: () => sinks.map((sink) => ({ index: sink.index, write: sink.createMergeSink(), join: sink.join })),
    async *readFile(file) {
      const sink = sinkOf(sinks, file.sink);
      if (sink === undefined) return;
      const format: Format = sink.format;
      yield* format.decodeRows(
        await sink.store.openRead(file.path),
        sink.columns,
        format.settings(sink.config),
      );
    },
    async openFile(file) {
      const sink = sinkOf(sinks, file.sink);
      if (sink === undefined)
        throw new SinkError(`sink ${file.sink + 1} has no store to read ${file.path} from`);
      return sink.store.openRead(file.path);
    },
    deleteFile: recordedFileRemover(sinks),
  };
}

async function* fileBytes(
  files: readonly CommittedFile[],
  merge: PartMerge,
): AsyncGenerator<AsyncIterable<Uint8Array>> {
  for (const file of files) yield await merge.openFile(file);
}

async function* concatenate(
  files: readonly CommittedFile[],
  merge: PartMerge,
  signal: AbortSignal,
): AsyncGenerator<RecordBatch> {
  for (const file of files) yield* merge.readFile(file, signal);
}

/** Whether any sink has more than one partition file to fold. */
export function needsMerge(files: readonly CommittedFile[]): boolean {
  const perSink = new Map<number, number>();
  for (const file of files) perSink.set(file.sink, (perSink.get(file.sink) ?? 0) + 1);
  return [...perSink.values()].some((count) => count > 1);
}

/**
 * The files joined as bytes, or undefined to merge them row by row: the sink cannot join, or a file
 * has other columns (a partition written before the pinned schema changed).
 */
async function joinFiles(
  join: FileJoin | undefined,
  files: readonly CommittedFile[],
  rows: number,
  merge: PartMerge,
  ctx: SliceContext,
): Promise<SliceOutput | undefined> {
  const bytes = files.reduce((sum, file) => sum + file.bytes, 0);
  if (join === undefined || !join.fits(rows, bytes)) return undefined;
  try {
    return await join.join(fileBytes(files, merge), rows, ctx);
  } catch (error) {
    if (hasCode(error, ERROR_CODES.SINK_JOIN_MISMATCH) && error instanceof Error) {
      ctx.log.info({ slice: ctx.slice.id, reason: error.message }, "Partition files are merged row by row.");
      return undefined;
    }
    throw error;
  }
}

/** Writes and commits the merged files of every sink; returns them as the state records them. */
export async function mergePartFiles(
  slice: Slice,
  files: readonly CommittedFile[],
  merge: PartMerge,
  ctx: SliceContext,
  recordIntent: RecordIntent,
  fence?: () => Promise<void>,
): Promise<CommittedFile[]> {
  const sinks = merge.sinks();
  const outputs = [];
  try {
    for (const sink of sinks) {
      const own = files.filter((file) => file.sink === sink.index);
      const expected = own.reduce((sum, file) => sum + file.rows, 0);
      const joined = await joinFiles(sink.join, own, expected, merge, { ...ctx, slice });
      const output = joined ?? (await sink.write(concatenate(own, merge, ctx.signal), { ...ctx, slice }));
      outputs.push(output);
      if (output.rows !== expected)
        throw new SinkError(
          `slice ${slice.id}: merging ${own.length} partition files of sink ${sink.index + 1} gave ${output.rows} rows, not ${expected}`,
        );
    }
  } catch (error) {
    await Promise.allSettled(outputs.map((output) => output.discard()));
    throw error;
  }
  return commitOutputs(outputs, recordIntent, fence);
}
