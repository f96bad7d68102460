// Joins the files a sink wrote for the parts of a batch slice into the one file it would have written
// for the whole slice, through the format's `join`: bytes copied, no row decoded.
import type { SliceContext, SliceOutput } from "../core/contracts.js";
import type { SinkConfig } from "./sink-config.js";
import { fileRules } from "./sink.js";
import type { SinkDeps } from "./sink.js";
import { createSliceOutput } from "./slice-output.js";

/** Whole files of a sink joined into the slice's one file; see `createFileJoin`. */
export interface FileJoin {
  /** Whether files of these rows and bytes in all fit one file under the sink's rolling limits. */
  fits(rows: number, bytes: number): boolean;
  join(
    files: AsyncIterable<AsyncIterable<Uint8Array>>,
    rows: number,
    ctx: SliceContext,
  ): Promise<SliceOutput>;
}

/**
 * Joins files this sink wrote for parts of a slice into the file it would write for the whole slice,
 * through the format's `join` (bytes copied, no row decoded). Undefined when the result could differ
 * from writing the rows again: the path template reads rows (files could belong under other names),
 * or the format cannot join; `fits` says no when the files together pass a rolling limit.
 */
export function createFileJoin(config: SinkConfig, deps: SinkDeps): FileJoin | undefined {
  const { format } = deps;
  const { settings, template, maxRows, maxBytes, valuesOf } = fileRules(config, deps);
  const join = format.join;
  if (join === undefined || template.fields.length > 0) return undefined;
  // Joined bytes are at most the files' own: NDJSON is their sum, Parquet drops all footers but one.
  const fits = (rows: number, bytes: number): boolean => rows <= maxRows && bytes <= maxBytes;
  const joinFiles: FileJoin["join"] = async (files, rows, ctx) => {
    const path = template.withSeq(template.renderKey(valuesOf(ctx.slice), undefined), 0);
    const writer = await deps.store.stage(path, ctx.signal, format.contentType(settings));
    try {
      for await (const chunk of join.call(format, files, deps.columns, settings)) {
        ctx.signal.throwIfAborted();
        await writer.write(chunk);
      }
      const written = await writer.finish();
      return createSliceOutput([{ path, rows, ...written }], [writer], ctx.slice.id);
    } catch (error) {
      await writer.abort().catch(() => undefined);
      throw error;
    }
  };
  return { fits, join: joinFiles };
}
