// The unit that flows between stages, said out loud: a batch of records is one of three shapes, and a
// stage switches on `kind` instead of looking for hidden properties on rows. Parsed rows are the shape
// every stage takes; lines and columns are what a source delivers, where no stage reads a record's
// fields, to a sink whose format takes them (Format.takes), so the service's hits need not be parsed.

/** Column types of the output schema, derived from the service's mappings. */
export type ColumnType = "string" | "double" | "int64" | "int32" | "boolean" | "timestamp" | "json";

/**
 * A column of the output. `name` is the row key after transforms; for rows that are still nested
 * (no `flatten`), a dotted name is looked up as a path (`job.id` → `row.job.id`).
 */
export interface Column {
  name: string;
  type: ColumnType;
}

/** One record. From a hit: its `_source`, with `_id` and `_index` beside it. */
export type Row = Readonly<Record<string, unknown>>;

/** What identifies a record: the service's ids are unique within an index only. */
export interface RecordId {
  readonly _id: string;
  readonly _index: string;
}

/**
 * A row's JSON as `JSON.stringify(row)` writes it, in two parts: `head` (text) and then `tail` (UTF-8
 * bytes, the service's own), so an output copies bytes instead of serialising the row again.
 */
export interface RowJson {
  head: string;
  tail: Uint8Array;
}

/**
 * Parsed rows. `json`, when a source sets it, holds each row's JSON, index-aligned with `rows`
 * (undefined for a row it could not splice). A stage that only drops or regroups rows keeps the entries
 * of the rows it keeps, in step; one that changes rows yields a batch without it.
 * @example
 * const batch: RecordBatch = { kind: "rows", rows: [{ _id: "a", _index: "jobs", n: 1 }] };
 */
export interface RowsBatch {
  readonly kind: "rows";
  readonly rows: readonly Row[];
  readonly json?: readonly (RowJson | undefined)[] | undefined;
}

/** Records never parsed: each one's identity and its JSON spliced from the service's bytes. */
export interface LinesBatch {
  readonly kind: "lines";
  readonly ids: readonly RecordId[];
  /** Index-aligned with `ids`. */
  readonly lines: readonly RowJson[];
}

/** A scalar of an output column, coerced to its type. */
export type ColumnValue = string | number | bigint | boolean | null;

/** Values a columns reader took from the bytes of up to a thousand hits, column by column. */
export interface ColumnChunk {
  /** The columns the values were taken for, in order. */
  readonly columns: readonly Column[];
  readonly values: ColumnValue[][];
  /** Per hit, the fields no column holds (the unknown-field report names them). */
  readonly unknown: (readonly string[])[];
  /** Per hit, the characters of its text columns' values (an encoder's estimate of their size). */
  readonly textLengths: number[];
  /**
   * Whether a hit read into the chunk held an escaped lone surrogate (`\ud800`) anywhere: only then
   * may its values hold one, since UTF-8 bytes cannot.
   */
  loneSurrogates: boolean;
}

/** A record a columns reader took: its identity and where its values are. */
export interface TakenRecord extends RecordId {
  readonly chunk: ColumnChunk;
  readonly at: number;
}

/** Records never parsed: each one's identity and its values for the columns of one sink. */
export interface ColumnsBatch {
  readonly kind: "columns";
  readonly records: readonly TakenRecord[];
}

export type RecordBatch = RowsBatch | LinesBatch | ColumnsBatch;

/** The shapes a batch can have. */
export type RecordShape = RecordBatch["kind"];

/** The records a batch holds. */
export function recordCount(batch: RecordBatch): number {
  switch (batch.kind) {
    case "rows":
      return batch.rows.length;
    case "lines":
      return batch.ids.length;
    case "columns":
      return batch.records.length;
  }
}

/** The `index`-th record's identity, or the row itself (whose `_id` an aggregation row may lack). */
export function recordIdOf(batch: RecordBatch, index: number): RecordId | Row | undefined {
  switch (batch.kind) {
    case "rows":
      return batch.rows[index];
    case "lines":
      return batch.ids[index];
    case "columns":
      return batch.records[index];
  }
}

/** The records at `indexes` (in order), each kept with what the batch holds beside it. */
export function pickRecords(batch: RecordBatch, indexes: readonly number[]): RecordBatch {
  const pick = <T>(list: readonly T[]): T[] => indexes.map((index) => list[index] as T);
  switch (batch.kind) {
    case "rows":
      return batch.json === undefined
        ? { kind: "rows", rows: pick(batch.rows) }
        : { kind: "rows", rows: pick(batch.rows), json: pick(batch.json) };
    case "lines":
      return { kind: "lines", ids: pick(batch.ids), lines: pick(batch.lines) };
    case "columns":
      return { kind: "columns", records: pick(batch.records) };
  }
}

/** Records `start` to `end` of a batch, with what it holds beside them: a file rolls mid-batch. */
export function sliceRecords(batch: RecordBatch, start: number, end: number): RecordBatch {
  return pickRecords(
    batch,
    Array.from({ length: end - start }, (_, index) => start + index),
  );
}
