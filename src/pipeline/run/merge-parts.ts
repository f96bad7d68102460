// Merges the files a batch export's partitions wrote into the slice's own files: one per partition
// path (more only when the rolling limits ask). Partitions still commit one by one, so a stopped run
// resumes per partition; the merge runs once they are all in, and is recorded before the partition
// files are removed, so a crash at any point leaves either the partitions or the merged files.
import type { RecordBatch, SliceContext, SliceOutput } from "../../core/contracts.js";
import { commitOutputs } from "../output-state/commit-outputs.js";
import type { StateStore } from "../output-state/state.js";
import type { CommittedFile } from "../output-state/state-schema.js";
import { fileKey } from "../output-state/state-files.js";
import { recordedFileRemover } from "./sink-runtime.js";
import type { SinkRuntime } from "./sink-runtime.js";
import { ERROR_CODES, hasCode, SinkError } from "../../errors.js";

/** The bytes of each of a sink's committed files, from its store. */
async function* fileBytes(
  files: readonly CommittedFile[],
  sink: SinkRuntime,
): AsyncGenerator<AsyncIterable<Uint8Array>> {
  for (const file of files) yield await sink.store.openRead(file.path);
}

/**
 * The rows of a sink's committed files, read back through its format in the order they were written.
 * They are already under the output's column names (a `snake_case` sink's `workload_state`), so the
 * merge sink writes them as they are and its path template reads the names the paged path's rows
 * carry: a merged slice lands in the files a paged one would.
 */
async function* concatenate(files: readonly CommittedFile[], sink: SinkRuntime): AsyncGenerator<RecordBatch> {
  const { format } = sink;
  for (const file of files)
    yield* format.decodeRows(
      await sink.store.openRead(file.path),
      sink.columns,
      format.settings(sink.config),
    );
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
  sink: SinkRuntime,
  files: readonly CommittedFile[],
  rows: number,
  ctx: SliceContext,
): Promise<SliceOutput | undefined> {
  const { join } = sink;
  const bytes = files.reduce((sum, file) => sum + file.bytes, 0);
  if (join === undefined || !join.fits(rows, bytes)) return undefined;
  try {
    return await join.join(fileBytes(files, sink), rows, ctx);
  } catch (error) {
    if (hasCode(error, ERROR_CODES.SINK_JOIN_MISMATCH) && error instanceof Error) {
      ctx.log.info({ slice: ctx.slice.id, reason: error.message }, "Partition files are merged row by row.");
      return undefined;
    }
    throw error;
  }
}

/** Writes and commits the merged files of every sink, through fresh sinks; returns them as the state records them. */
async function writeMerged(
  files: readonly CommittedFile[],
  sinks: readonly SinkRuntime[],
  ctx: SliceContext,
  state: StateStore,
  fence: (() => Promise<void>) | undefined,
): Promise<CommittedFile[]> {
  const { slice } = ctx;
  const outputs = [];
  try {
    for (const sink of sinks) {
      const own = files.filter((file) => file.sink === sink.index);
      const expected = own.reduce((sum, file) => sum + file.rows, 0);
      const joined = await joinFiles(sink, own, expected, ctx);
      const output = joined ?? (await sink.createMergeSink()(concatenate(own, sink), ctx));
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
  return commitOutputs(outputs, (intended) => state.recordIntent(slice.id, intended), fence);
}

/**
 * Folds a slice's partition files into its own files. The merge is recorded in the state before a
 * partition file is removed: a crash before that leaves the partitions (the merge is redone, over the
 * same names), a crash after leaves the record (the remaining partition files are removed on the next run).
 */
export async function mergeSlice(
  files: readonly CommittedFile[],
  sinks: readonly SinkRuntime[],
  ctx: SliceContext,
  state: StateStore,
  fence: (() => Promise<void>) | undefined,
): Promise<CommittedFile[]> {
  const { slice } = ctx;
  let merged = state.batchProgress(slice.id)?.merged;
  if (merged === undefined) {
    const written = await writeMerged(files, sinks, ctx, state, fence);
    await state.recordMerge(slice.id, written);
    merged = written;
    ctx.log.info({ parts: files.length, files: written.length }, "Merged the partition files of the slice.");
  }
  const kept = new Set(merged.map(fileKey));
  const remove = recordedFileRemover(sinks);
  for (const file of files) if (!kept.has(fileKey(file))) await remove(file);
  return [...merged];
}
