// The contract of an output format: its options on a sink, how rows of known columns become the
// bytes of one file, and how `verify` counts the rows of such a file again.
import type { z } from "zod";
import type { Column, RowEncoder } from "../core/contracts.js";
import type { WorkerPool } from "../core/worker-pool.js";

/** What the run lends an encoder beside its columns and settings. */
export interface EncoderContext {
  /** Worker threads for CPU-heavy encoding; without them, or with none to spare, encode in-thread. */
  workers?: WorkerPool;
}

/** A sink as parsed, seen by a format: it reads its own options out of it. */
export type SinkFields = Readonly<Record<string, unknown>>;

/**
 * A file format; any destination takes any format (stdout only those that `streams`). Registered in
 * `FORMATS` (components/registry.ts) under its `type`, the YAML `format` value.
 * @example
 * const settings = ndjsonFormat.settings({ gzip: true });
 * const encoder = ndjsonFormat.createEncoder(columns, settings);
 * const chunks = [...(await encoder.encode(batch)), ...(await encoder.finish())];
 */
export interface Format<Settings = unknown> {
  type: string;
  /** One line, shown in the generated docs. */
  summary: string;
  /**
   * Fields this format adds to a sink, beside `format` (gzip, compression, ...), each with its
   * default and description. Option names are unique across formats; the sink schema refuses one
   * set to other than its default under another format.
   */
  options: Readonly<Record<string, z.ZodType>>;
  /** A reader can take the file as it comes, so it may go to a pipe (stdout). */
  streams: boolean;
  /** This format's settings, read from a parsed sink. */
  settings(sink: SinkFields): Settings;
  /** File extension for `{ext}`, without the dot; may depend on the settings (`ndjson.gz`). */
  extension(settings: Settings): string;
  /** The media type stores label the files with (S3 Content-Type). */
  contentType(settings: Settings): string;
  createEncoder(columns: readonly Column[], settings: Settings, context?: EncoderContext): RowEncoder;
  /**
   * Whether its encoder writes rows as JSON text (key order shows; a batch's spliced JSON is copied
   * instead of serialising the row). When no sink's does, sources skip building that JSON and pass
   * the parsed records on as rows. Absent: assumed to.
   */
  writesRowJson?(settings: Settings, context: EncoderContext): boolean;
  /**
   * The bytes of one file holding the rows of whole files this format wrote with the same columns and
   * settings, in order, without decoding them (a batch slice's partition files joined). Optional: a
   * format without it is merged row by row.
   */
  join?(
    files: AsyncIterable<AsyncIterable<Uint8Array>>,
    columns: readonly Column[],
    settings: Settings,
  ): AsyncIterable<Uint8Array>;
  /** Counts the rows of a written file from its bytes, streaming them once (verify). */
  countRows(chunks: AsyncIterable<Uint8Array>, settings: Settings): Promise<number>;
}
