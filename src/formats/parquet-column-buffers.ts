// A row group's values, column by column, read from rows and coerced to each column's Parquet type.
import type { Column, Row } from "../core/contracts.js";
import type { Coercer, ParquetValue } from "./coerce-value.js";
import { parquetCoercers } from "./parquet-coercers.js";
import { createColumnReader } from "./column-value.js";
import { EtlError } from "../errors.js";
import { sameColumns, TAKEN_AT, takenChunkOf } from "./taken-columns.js";
import type { TakenChunk, TakenRow } from "./taken-columns.js";
import type { ColumnReader } from "./column-value.js";

interface ColumnBuffer {
  read: ColumnReader;
  coerce: Coercer;
  values: ParquetValue[];
  /** Strings vary in size; other values are counted as 8 bytes. */
  isText: boolean;
}

/** Readers and coercers are prepared once per file, so the per-row work is a lookup and a check. */
export class ColumnBuffers {
  readonly names: string[];
  private readonly buffers: ColumnBuffer[];
  /** Rows buffered. */
  rows = 0;
  /** About the bytes of the values buffered: string characters, plus 8 per value. */
  bytes = 0;

  private readonly columns: readonly Column[];
  /** Column lists of taken chunks already found to be these columns. */
  private readonly matching = new WeakSet<readonly Column[]>();
  /** Per row of the current append: its taken chunk and place, when it is a taken row. */
  private chunks: (TakenChunk | undefined)[] = [];
  private places: number[] = [];

  constructor(columns: readonly Column[]) {
    this.columns = columns;
    this.names = columns.map((column) => column.name);
    this.buffers = columns.map((column) => ({
      read: createColumnReader(column),
      coerce: parquetCoercers[column.type],
      values: [],
      isText: column.type === "string" || column.type === "json",
    }));
  }

  /** Appends rows `start` to `end` of `rows`. */
  append(rows: readonly Row[], start: number, end: number): void {
    if (this.findTaken(rows, start, end)) {
      this.appendTaken(rows, start, end);
      return;
    }
    // Column by column keeps each loop monomorphic: one reader and one coercer per pass.
    let textLength = 0;
    for (const buffer of this.buffers) {
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
  }

  /**
   * Notes which rows a columns reader took (formats/taken-columns.ts); false when none did. Their
   * values were taken for the encoder's columns: a row taken for others is a defect, never nulls.
   */
  private findTaken(rows: readonly Row[], start: number, end: number): boolean {
    let any = false;
    for (let i = start; i < end; i++) {
      const row = rows[i] as Row;
      const chunk = takenChunkOf(row);
      this.chunks[i - start] = chunk;
      if (chunk === undefined) continue;
      any = true;
      this.places[i - start] = (row as TakenRow)[TAKEN_AT];
      if (this.matching.has(chunk.columns)) continue;
      if (!sameColumns(chunk.columns, this.columns))
        throw new EtlError(
          "INTERNAL",
          "rows were taken from the service's bytes for other columns than the file's",
        );
      this.matching.add(chunk.columns);
    }
    return any;
  }

  /** `append` for rows of which some were taken: their values are read from their chunks. */
  private appendTaken(rows: readonly Row[], start: number, end: number): void {
    const { chunks, places } = this;
    let textLength = 0;
    this.buffers.forEach((buffer, column) => {
      const { read, coerce, values } = buffer;
      for (let i = start; i < end; i++) {
        const chunk = chunks[i - start];
        const value =
          chunk === undefined
            ? coerce(read(rows[i] as Row))
            : ((chunk.values[column] as ParquetValue[])[places[i - start] as number] as ParquetValue);
        if (buffer.isText && typeof value === "string") textLength += value.length;
        values.push(value);
      }
    });
    this.rows += end - start;
    this.bytes += textLength + (end - start) * this.buffers.length * 8;
  }

  /** The values buffered, one array per column; the buffers start empty again. */
  take(): ParquetValue[][] {
    const values = this.buffers.map((buffer) => buffer.values);
    for (const buffer of this.buffers) buffer.values = [];
    this.rows = 0;
    this.bytes = 0;
    return values;
  }
}
