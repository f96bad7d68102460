// The contract of an output format: its options on a sink, how rows of known columns become the
// bytes of one file, how a merge reads or joins such files, how `verify` counts their rows, and what
// the runner and `ddl` need to know of it. Nothing outside formats/ tests a format by its name.
import type { z } from "zod";
import type { RecordBatch, Column, RowEncoder } from "../core/contracts.js";
import type { ColumnCoercers } from "../core/hit-reader.js";

/**
 * The batches a format's encoder takes beside the parsed rows every encoder takes (RecordBatch):
 * - `rows`: none; it reads fields by name, so neither key order nor JSON text shows.
 * - `lines`: records as JSON text; it writes rows as JSON text too, so the rows it gets keep
 *   `JSON.stringify` order and carry their JSON spliced from the service's bytes.
 * - `columns`: each record's values for its columns, taken from the hits' bytes by the columns reader
 *   of decoding/taken-columns.ts, through `coercers`.
 * The run asks a source for lines or columns only where no stage reads a record's fields.
 */
export type FormatIntake =
  { readonly shape: "rows" | "lines" } | { readonly shape: "columns"; readonly coercers: ColumnCoercers };

/** A sink as parsed, seen by a format: it reads its own options out of it. */
export type SinkFields = Readonly<Record<string, unknown>>;

/**
 * How warehouses read a format's files (`ddl`). `records`: `columns` when the file has typed columns of
 * its own, found by name; `json-lines` when each line is one JSON object, a column found in it by path
 * (nested or under a literal dotted key, as the transforms left the record).
 */
export interface TableFiles {
  records: "columns" | "json-lines";
  /** The files are gzip streams (a reader that does not sniff must be told). */
  gzip: boolean;
  /** The file format as each dialect names it. */
  dialects: {
    /** The table function that reads the files (`read_json_objects`). */
    duckdb: string;
    /** The storage clause (`STORED AS ...` or `ROW FORMAT SERDE ...`). */
    athena: string;
    /** The `format` option of an external table (`NEWLINE_DELIMITED_JSON`). */
    bigquery: string;
  };
}

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
  /**
   * The file holds the output columns only: a field without a column is dropped (and the run warns of
   * it), where a format of whole records (NDJSON) keeps every field the transforms left.
   */
  columnar: boolean;
  /** This format's settings, read from a parsed sink. */
  settings(sink: SinkFields): Settings;
  /** File extension for `{ext}`, without the dot; may depend on the settings (`ndjson.gz`). */
  extension(settings: Settings): string;
  /** The media type stores label the files with (S3 Content-Type). */
  contentType(settings: Settings): string;
  createEncoder(columns: readonly Column[], settings: Settings): RowEncoder;
  /**
   * The rows of a file this format wrote with these columns and settings, in order, `batchRows` at a
   * time (default 1000): a batch slice's partition files are merged through it when they cannot be
   * joined. Encoding the rows again must give the same records.
   */
  decodeRows(
    chunks: AsyncIterable<Uint8Array>,
    columns: readonly Column[],
    settings: Settings,
    batchRows?: number,
  ): AsyncIterable<RecordBatch>;
  /** The batches its encoder takes beside parsed rows, which decides what a slice's source delivers. */
  takes: FormatIntake;
  /**
   * The bytes of one file holding the rows of whole files this format wrote with the same columns and
   * settings, in order, without decoding them (a batch slice's partition files joined). Optional: a
   * format without it is merged row by row through `decodeRows`.
   */
  join?(
    files: AsyncIterable<AsyncIterable<Uint8Array>>,
    columns: readonly Column[],
    settings: Settings,
  ): AsyncIterable<Uint8Array>;
  /** Counts the rows of a written file from its bytes, streaming them once (verify). */
  countRows(chunks: AsyncIterable<Uint8Array>, settings: Settings): Promise<number>;
  /** How warehouses read the files; absent when none can, and `ddl` refuses the sink. */
  table?(settings: Settings): TableFiles;
}
