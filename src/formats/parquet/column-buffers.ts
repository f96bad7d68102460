// A row group's values, column by column, read from rows and coerced to each column's Parquet type.
import type { Column, RecordBatch, Row } from "../../core/contracts.js";
import type { ColumnChunk, TakenRecord } from "../../core/record-batch.js";
import type { Coercer, ParquetValue } from "../coerce-value.js";
import { parquetCoercers } from "./coercers.js";
import { createColumnReader } from "../column-value.js";
import { EtlError, hasCode } from "../../errors.js";
import { loneSurrogates, wellFormedJson } from "../../decoding/json-exact.js";
import { sameColumns } from "../../decoding/taken-columns.js";
import type { ColumnReader } from "../column-value.js";

interface ColumnBuffer {
  read: ColumnReader;
  coerce: Coercer;
  /** Values read from rows one by one, after those of `parts`. */
  values: ParquetValue[];
  /** Earlier values, in order: rows read one by one, and runs of taken rows, where they are. */
  parts: ValueRun[];
  /** Strings vary in size; other values are counted as 8 bytes. */
  isText: boolean;
  /** A `json` column, whose text still holds lone surrogates as escapes (coerce-value.ts). */
  isJson: boolean;
}

/** The coercers' refusals, which `append` names with the column (coerce-value.ts). */
const REFUSALS = ["SINK_VALUE_NOT_INT64", "SINK_VALUE_NOT_INT32"] as const;

/** Values `from` to `to` of an array that is not copied until the row group is taken. */
interface ValueRun {
  values: readonly ParquetValue[];
  from: number;
  to: number;
}

/** Runs of taken rows shorter than this are copied value by value; longer ones are kept where they are. */
const WHOLE_RUN = 32;

/**
 * The runs as one array, in order, copied once: a run that is a whole array of its own is that array.
 * (Sliced when appended and joined with `concat` when taken, each value was copied twice.)
 */
function joined(parts: readonly ValueRun[]): ParquetValue[] {
  const only = parts.length === 1 ? (parts[0] as ValueRun) : undefined;
  if (only !== undefined && only.from === 0 && only.to === only.values.length)
    return only.values as ParquetValue[];
  let length = 0;
  for (const part of parts) length += part.to - part.from;
  const values = new Array<ParquetValue>(length);
  let at = 0;
  for (const { values: run, from, to } of parts)
    for (let k = from; k < to; k++) values[at++] = run[k] as ParquetValue;
  return values;
}

/** Readers and coercers are prepared once per file, so the per-row work is a lookup and a check. */
export class ColumnBuffers {
  readonly names: string[];
  private readonly buffers: ColumnBuffer[];
  /** Rows buffered. */
  rows = 0;
  /** The lone surrogates the values taken so far hold, each written as U+FFFD. */
  readonly replaced = { count: 0 };
  /** About the bytes of the values buffered: string characters, plus 8 per value. */
  bytes = 0;
  /**
   * Whether a value buffered may hold a lone surrogate: any row may; taken values only from a chunk
   * whose hits held an escaped one (their text is checked for none otherwise).
   */
  private mayHoldSurrogates = false;

  private readonly columns: readonly Column[];
  /** Column lists of taken chunks already found to be these columns. */
  private readonly matching = new WeakSet<readonly Column[]>();

  constructor(columns: readonly Column[]) {
    this.columns = columns;
    this.names = columns.map((column) => column.name);
    this.buffers = columns.map((column) => ({
      read: createColumnReader(column),
      coerce: parquetCoercers[column.type],
      values: [],
      parts: [],
      isText: column.type === "string" || column.type === "json",
      isJson: column.type === "json",
    }));
  }

  /**
   * Appends records `start` to `end` of a batch of rows or of taken columns; a value its column refuses
   * (an integer column's) fails the append.
   */
  append(batch: RecordBatch, start: number, end: number): void {
    try {
      if (batch.kind === "rows") this.appendRows(batch.rows, start, end);
      else if (batch.kind === "columns") this.appendTaken(batch.records, start, end);
      else throw new EtlError("INTERNAL", "a Parquet file was handed JSON lines; it takes rows or columns");
    } catch (error) {
      throw this.named(error);
    }
  }

  /** A coercer's refusal, named with the column being read when it came (`reading`). */
  private named(error: unknown): unknown {
    const code = REFUSALS.find((refusal) => hasCode(error, refusal));
    if (code === undefined) return error;
    const name = this.names[this.reading] ?? "?";
    return new EtlError(code, `column ${JSON.stringify(name)}: ${(error as Error).message}`, {
      cause: error,
    });
  }

  /** The column being read, for the message of a coercer's refusal. */
  private reading = 0;

  private appendRows(rows: readonly Row[], start: number, end: number): void {
    // Column by column keeps each loop monomorphic: one reader and one coercer per pass.
    let textLength = 0;
    for (let column = 0; column < this.buffers.length; column++) {
      const buffer = this.buffers[column] as ColumnBuffer;
      this.reading = column;
      const { read, coerce, values } = buffer;
      if (buffer.isText) {
        for (let i = start; i < end; i++) {
          const value = coerce(read(rows[i] as Row));
          if (typeof value === "string") textLength += value.length;
          values.push(value);
        }
      } else {
        for (let i = start; i < end; i++) values.push(coerce(read(rows[i] as Row)));
      }
    }
    this.rows += end - start;
    this.bytes += textLength + (end - start) * this.buffers.length * 8;
    this.mayHoldSurrogates = true;
  }

  /**
   * `append` for records a columns reader took: their values are in their chunks, and each run of
   * records taken from one chunk in a row is kept as a run of that chunk's arrays, copied once when the
   * row group is taken. Their values were taken for the encoder's columns: a record taken for
   * others is a defect, never nulls.
   */
  private appendTaken(records: readonly TakenRecord[], start: number, end: number): void {
    let textLength = 0;
    let i = start;
    while (i < end) {
      const { chunk, at: from } = records[i] as TakenRecord;
      this.checkColumns(chunk);
      if (chunk.loneSurrogates) this.mayHoldSurrogates = true;
      let next = i + 1;
      while (next < end && records[next]?.chunk === chunk && records[next]?.at === from + next - i) next++;
      const to = from + next - i;
      this.buffers.forEach((buffer, column) => {
        const taken = chunk.values[column] as ParquetValue[];
        if (to - from < WHOLE_RUN) {
          for (let k = from; k < to; k++) buffer.values.push(taken[k] as ParquetValue);
          return;
        }
        if (buffer.values.length > 0) {
          buffer.parts.push({ values: buffer.values, from: 0, to: buffer.values.length });
          buffer.values = [];
        }
        buffer.parts.push({ values: taken, from, to });
      });
      for (let k = from; k < to; k++) textLength += chunk.textLengths[k] as number;
      i = next;
    }
    this.rows += end - start;
    this.bytes += textLength + (end - start) * this.buffers.length * 8;
  }

  private checkColumns(chunk: ColumnChunk): void {
    if (this.matching.has(chunk.columns)) return;
    if (!sameColumns(chunk.columns, this.columns))
      throw new EtlError(
        "INTERNAL",
        "rows were taken from the service's bytes for other columns than the file's",
      );
    this.matching.add(chunk.columns);
  }

  /**
   * Counts the lone surrogates of a text column's values, which the encoder writes as U+FFFD; a `json`
   * column's are escapes, replaced here, in a copy: the values may be a chunk's own array, which other
   * outputs read too. Once per value per row group, on every path (rows, taken values): one native
   * check for a string, at once for one-byte ones.
   */
  private replaceSurrogates(values: ParquetValue[], isJson: boolean): ParquetValue[] {
    const replaced = this.replaced;
    let written = values;
    for (let i = 0; i < values.length; i++) {
      const value = values[i];
      if (typeof value !== "string") continue;
      if (!isJson) {
        replaced.count += loneSurrogates(value);
        continue;
      }
      const wellFormed = wellFormedJson(value, replaced);
      if (wellFormed === value) continue;
      if (written === values) written = values.slice();
      written[i] = wellFormed;
    }
    return written;
  }

  /** The values buffered, one array per column; the buffers start empty again. */
  take(): ParquetValue[][] {
    const values = this.buffers.map(({ parts, values, isText, isJson }) => {
      if (parts.length > 0 && values.length > 0) parts.push({ values, from: 0, to: values.length });
      const all = parts.length === 0 ? values : joined(parts);
      return isText && this.mayHoldSurrogates ? this.replaceSurrogates(all, isJson) : all;
    });
    for (const buffer of this.buffers) {
      buffer.values = [];
      buffer.parts = [];
    }
    this.rows = 0;
    this.bytes = 0;
    this.mayHoldSurrogates = false;
    return values;
  }
}
