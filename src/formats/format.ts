// The contract of an output format: how rows of known columns become the bytes of one file.
import type { Column, RowEncoder } from "../pipeline/contracts.js";

/** Options a sink passes to every encoder; each format reads the ones it understands. */
export interface FormatOptions {
  /** NDJSON: gzip the whole file. */
  gzip?: boolean;
  /** Parquet: page compression. */
  compression?: "snappy" | "uncompressed";
  /** Parquet: rows buffered before a row group is written. */
  rowGroupRows?: number;
  /** Parquet: about this many bytes of values buffered also end a row group (tests lower it). */
  rowGroupBytes?: number;
}

/**
 * A file format. Any store takes any format.
 * @example
 * const encoder = ndjsonFormat.createEncoder(columns, { gzip: true });
 * const chunks = [...(await encoder.encode(batch)), ...(await encoder.finish())];
 */
export interface Format {
  name: "parquet" | "ndjson";
  /** File extension for `{ext}`, without the dot; depends on options (`ndjson.gz`). */
  extension(options: FormatOptions): string;
  createEncoder(columns: readonly Column[], options: FormatOptions): RowEncoder;
}
