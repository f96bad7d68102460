// Runs one slice: source pages → de-duplication → transforms → every sink, then checks the count the
// service reported against the records read. Output stays staged; the runner commits it.
import { ReconciliationError } from "../../errors.js";
import type { Logger } from "../../logger.js";
import type {
  RecordBatch,
  RunInfo,
  Sink,
  Slice,
  SliceContext,
  SliceOutput,
  Source,
  Transform,
} from "../../core/contracts.js";
import type { RecordRequest } from "../../core/hit-reader.js";
import { recordCount } from "../../core/record-batch.js";
import { deduplicateById } from "./deduplicate.js";
import type { SeenRecords } from "./deduplicate.js";
import { fanOut } from "./fan-out.js";
import { prefetch } from "./prefetch.js";
import { commitOutputs } from "../output-state/commit-outputs.js";
import type { RecordIntent, SliceTotals } from "../output-state/commit-outputs.js";

export interface SliceWork {
  source: Source;
  transforms: readonly Transform[];
  sinks: readonly Sink[];
  /** What the sinks take, which the source delivers (SliceContext.records); unset: rows with their JSON. */
  records?: RecordRequest;
}

/** A slice's counts (`read`: distinct records the source yielded), its output staged, not yet committed. */
interface SliceResult extends Omit<SliceTotals, "files"> {
  /** One output per sink, in the order of the pipeline's sinks. */
  outputs: readonly SliceOutput[];
}

interface RunSliceOptions {
  signal: AbortSignal;
  log: Logger;
  run: RunInfo;
  /**
   * Ids already written by the other parts of the same slice. A part's announced count covers every
   * record in its file, so with a shared set the count is checked against records read plus duplicates.
   */
  seen?: SeenRecords;
}

async function* countRows(
  input: AsyncIterable<RecordBatch>,
  onRows: (rows: number) => void,
): AsyncGenerator<RecordBatch> {
  for await (const batch of input) {
    onRows(recordCount(batch));
    yield batch;
  }
}

/** The context a slice's (or a part's) stages share: its logger names the slice, its counts start at 0. */
export function sliceContext(
  slice: Slice,
  options: Pick<RunSliceOptions, "signal" | "log" | "run">,
  records?: RecordRequest,
): SliceContext {
  return {
    signal: options.signal,
    log: options.log.child({ slice: slice.id }),
    slice,
    run: options.run,
    stats: { duplicates: 0 },
    ...(records !== undefined ? { records } : {}),
  };
}

/** Runs a slice to staged output; on any failure every sink's staged files are discarded. */
export async function runSlice(
  slice: Slice,
  work: SliceWork,
  options: RunSliceOptions,
): Promise<SliceResult> {
  // One failing sink must stop the source and the other sinks, not just leave them waiting.
  const controller = new AbortController();
  const signal = AbortSignal.any([options.signal, controller.signal]);
  const ctx = sliceContext(slice, { ...options, signal }, work.records);
  let read = 0;
  let stream: AsyncIterable<RecordBatch> = countRows(
    deduplicateById(prefetch(work.source(ctx)), ctx.stats, options.seen),
    (rows) => (read += rows),
  );
  for (const transform of work.transforms) stream = transform(stream, ctx);
  const branches = fanOut(stream, work.sinks.length);
  const settled = await Promise.allSettled(
    work.sinks.map((sink, index) =>
      sink(branches[index] as AsyncIterable<RecordBatch>, ctx).catch((error: unknown) => {
        controller.abort(error);
        throw error;
      }),
    ),
  );
  const outputs = settled.flatMap((result) => (result.status === "fulfilled" ? [result.value] : []));
  const failure = settled.find((result) => result.status === "rejected");
  if (failure !== undefined) {
    await Promise.allSettled(outputs.map((output) => output.discard()));
    throw failure.reason;
  }
  const expected = ctx.stats.expected;
  const received = options.seen === undefined ? read : read + ctx.stats.duplicates;
  if (expected !== undefined && expected !== received) {
    await Promise.allSettled(outputs.map((output) => output.discard()));
    throw new ReconciliationError(
      `slice ${slice.id}: the service reported ${expected} records but ${read} were read` +
        (ctx.stats.duplicates > 0 ? ` (${ctx.stats.duplicates} duplicates dropped)` : ""),
    );
  }
  return { read, expected, duplicates: ctx.stats.duplicates, outputs };
}

/** Commits a slice's (or part's) staged output, its final names recorded first; its counts with its files. */
export async function commitSliceOutput(
  result: SliceResult,
  recordIntent: RecordIntent,
  fence: (() => Promise<void>) | undefined,
): Promise<SliceTotals> {
  const { outputs, ...counts } = result;
  return { ...counts, files: await commitOutputs(outputs, recordIntent, fence) };
}
