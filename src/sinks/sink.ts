// The generic sink: routes a slice's rows to files named by the path template, rolls them, and
// stages them for the slice to commit or discard as one. Any store, any format.
import type { Logger } from "../logger.js";
import type {
  Column,
  OutputStore,
  RecordBatch,
  Row,
  RowJson,
  RowsBatch,
  RunInfo,
  Sink,
  SliceContext,
  StagedFile,
  StagedWriter,
} from "../core/contracts.js";
import type { Format } from "../formats/format.js";
import { EtlError, SinkError } from "../errors.js";
import { recordCount, sliceRecords } from "../core/record-batch.js";
import { DEFAULT_PATH_TEMPLATE, compilePathTemplate } from "./path-template.js";
import type { TemplateValues } from "./path-template.js";
import { openOutputFile } from "./output-file.js";
import type { OutputFile } from "./output-file.js";
import type { SinkConfig } from "./sink-config.js";
import { abortAll, createSliceOutput } from "./slice-output.js";

export interface SinkDeps {
  /** The sink's format, from the environment the pipeline was loaded with. */
  format: Format;
  store: OutputStore;
  /** The columns rows carry after the transforms (the Parquet schema). */
  columns: readonly Column[];
  run: RunInfo;
  log: Logger;
}

/** Whether the sink's path template reads record fields (`{atr.domain_name}`) to name its files. */
export function pathReadsRecords(config: SinkConfig): boolean {
  return compilePathTemplate(config.path ?? DEFAULT_PATH_TEMPLATE).fields.length > 0;
}

/** How a sink names and rolls its files: what writing rows and joining whole files both follow. */
export function fileRules(config: SinkConfig, deps: Pick<SinkDeps, "format" | "run">) {
  const settings = deps.format.settings(config);
  const ext = deps.format.extension(settings);
  return {
    settings,
    template: compilePathTemplate(config.path ?? DEFAULT_PATH_TEMPLATE),
    maxRows: config.max_rows_per_file ?? Number.POSITIVE_INFINITY,
    maxBytes: config.max_file_bytes ?? Number.POSITIVE_INFINITY,
    /** The values of a slice's built-in placeholders. */
    valuesOf: (slice: SliceContext["slice"]): TemplateValues => ({ slice, runId: deps.run.runId, ext }),
  };
}

/** How `verify` counts the rows of this sink's files: its format's counter, with its settings. */
export function rowCounterOf(
  config: SinkConfig,
  format: Format,
): (chunks: AsyncIterable<Uint8Array>) => Promise<number> {
  const settings = format.settings(config);
  return (chunks) => format.countRows(chunks, settings);
}

/**
 * @example
 * const sink = createSink(config, { format, store, columns, run, log });
 * const output = await sink(batches, sliceContext);
 * await output.commit();
 */
export function createSink(config: SinkConfig, deps: SinkDeps): Sink {
  const { format } = deps;
  const { settings, template, maxRows, maxBytes, valuesOf } = fileRules(config, deps);
  const log = deps.log.child({ stage: "sink", to: deps.store.location });

  return async (input, ctx) => {
    const values = valuesOf(ctx.slice);
    const open = new Map<string, OutputFile>();
    const nextSeq = new Map<string, number>();
    const usedPaths = new Set<string>();
    const staged: StagedFile[] = [];
    /** Every file's writer since it opened: on a failure, each is aborted, staged or not. */
    const writers: StagedWriter[] = [];

    const fileFor = async (key: string): Promise<OutputFile> => {
      const existing = open.get(key);
      if (existing !== undefined) return existing;
      const seq = nextSeq.get(key) ?? 0;
      nextSeq.set(key, seq + 1);
      const path = template.withSeq(key, seq);
      if (usedPaths.has(path)) {
        throw new SinkError(
          `path template "${template.source}" gives "${path}" twice in slice ${ctx.slice.id}; add {seq} to roll files`,
          { code: "SINK_PATH_COLLISION" },
        );
      }
      usedPaths.add(path);
      const file = await openOutputFile({
        store: deps.store,
        path,
        format,
        columns: deps.columns,
        settings,
        signal: ctx.signal,
      });
      open.set(key, file);
      writers.push(file.writer);
      return file;
    };

    const closeFile = async (key: string, file: OutputFile): Promise<void> => {
      open.delete(key);
      staged.push(await file.close());
    };

    const write = async (key: string, batch: RecordBatch): Promise<void> => {
      const count = recordCount(batch);
      let start = 0;
      while (start < count) {
        const file = await fileFor(key);
        const end = Math.min(count, start + (maxRows - file.rows));
        await file.append(start === 0 && end === count ? batch : sliceRecords(batch, start, end));
        start = end;
        // Bytes are checked after each write: a file ends at most one batch (Parquet: one row group) past the limit.
        if (file.rows >= maxRows || file.bytes >= maxBytes) await closeFile(key, file);
      }
    };

    try {
      for await (const batch of input) {
        ctx.signal.throwIfAborted();
        if (recordCount(batch) === 0) continue;
        if (template.fields.length === 0) {
          await write(template.renderKey(values, undefined), batch);
        } else {
          // A path that reads record fields is written from rows only (see recordRequest).
          if (batch.kind !== "rows")
            throw new EtlError("INTERNAL", `a path template on record fields was handed ${batch.kind}`);
          for (const [key, group] of groupByKey(batch, (row) => template.renderKey(values, row)))
            await write(key, group);
        }
      }
      ctx.signal.throwIfAborted();
      for (const [key, file] of [...open]) await closeFile(key, file);
    } catch (error) {
      const failures = await abortAll(writers);
      if (failures.length > 0)
        log.error({ error: failures[0], slice: ctx.slice.id }, "Could not remove staged files.");
      throw error;
    }

    const rows = staged.reduce((sum, file) => sum + file.rows, 0);
    log.debug({ slice: ctx.slice.id, files: staged.length, rows }, "Staged slice output.");
    return createSliceOutput(staged, writers, ctx.slice.id);
  };
}

/** The batch's rows per file key, in order, each group keeping its rows' JSON beside them. */
function groupByKey(batch: RowsBatch, keyOf: (row: Row) => string): Map<string, RowsBatch> {
  const groups = new Map<string, { kind: "rows"; rows: Row[]; json: (RowJson | undefined)[] | undefined }>();
  const { rows, json } = batch;
  for (let index = 0; index < rows.length; index++) {
    const row = rows[index] as Row;
    const key = keyOf(row);
    let group = groups.get(key);
    if (group === undefined) {
      group = { kind: "rows", rows: [], json: json === undefined ? undefined : [] };
      groups.set(key, group);
    }
    group.rows.push(row);
    group.json?.push(json?.[index]);
  }
  return groups;
}
