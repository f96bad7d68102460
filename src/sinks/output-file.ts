// One file a sink is writing: an encoder feeding a staged writer, with the counts that drive rolling.
import type { RecordBatch, Column, OutputStore, StagedFile, StagedWriter } from "../core/contracts.js";
import { recordCount } from "../core/record-batch.js";
import type { Format } from "../formats/format.js";
import { isEtlError, SinkError } from "../errors.js";

export interface OutputFile {
  readonly writer: StagedWriter;
  rows: number;
  /** Bytes handed to the store so far (Parquet: whole row groups; gzip: compressed bytes). */
  bytes: number;
  append(batch: RecordBatch): Promise<void>;
  /** Writes the trailer and ends the bytes; the file stays invisible until the writer commits. */
  close(): Promise<StagedFile>;
}

interface OpenFileOptions {
  store: OutputStore;
  path: string;
  format: Format;
  columns: readonly Column[];
  /** The format's settings, read from the sink. */
  settings: unknown;
  signal: AbortSignal;
}

export async function openOutputFile(options: OpenFileOptions): Promise<OutputFile> {
  const { path, format, settings } = options;
  const encoder = format.createEncoder(options.columns, settings);
  const writer = await options.store.stage(path, options.signal, format.contentType(settings));
  const file: OutputFile = {
    writer,
    rows: 0,
    bytes: 0,
    async append(batch) {
      const chunks = await withContext(path, () => encoder.encode(batch));
      await writeAll(chunks);
      file.rows += recordCount(batch);
    },
    async close() {
      await writeAll(await withContext(path, () => encoder.finish()));
      const written = await writer.finish();
      const replaced = encoder.replacedSurrogates?.() ?? 0;
      return { path, rows: file.rows, ...written, ...(replaced > 0 ? { replacedSurrogates: replaced } : {}) };
    },
  };
  const writeAll = async (chunks: Uint8Array[]): Promise<void> => {
    for (const chunk of chunks) {
      await writer.write(chunk);
      file.bytes += chunk.length;
    }
  };
  return file;
}

/** Encoder failures are our bugs or bad data; name the file so the message leads somewhere. */
async function withContext<T>(path: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (isEtlError(error)) throw error;
    throw new SinkError(`encoding ${path} failed`, { code: "SINK_ENCODE_FAILED", cause: error });
  }
}
