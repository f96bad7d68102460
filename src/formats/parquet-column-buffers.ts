// A row group's values, column by column, read from rows and coerced to each column's Parquet type.
import type { Column, Row } from "../core/contracts.js";
import type { Coercer, ParquetValue } from "./coerce-value.js";
import { parquetCoercers } from "./parquet-coercers.js";
import { createColumnReader } from "./column-value.js";
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

  constructor(columns: readonly Column[]) {
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

  /** The values buffered, one array per column; the buffers start empty again. */
  take(): ParquetValue[][] {
    const values = this.buffers.map((buffer) => buffer.values);
    for (const buffer of this.buffers) buffer.values = [];
    this.rows = 0;
    this.bytes = 0;
    return values;
  }
}
