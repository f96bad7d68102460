// The second half of reading a hit's columns from its bytes: the values found for the column paths,
// one per slot, become each column's value, coerced exactly as the format's parsed path coerces them
// (the ColumnCoercers it hands over, Format.takes), with the calls skipped for values a coercer
// returns as they are.
import type { Column } from "../core/contracts.js";
import type { ColumnCoercers } from "../core/hit-reader.js";
import type { ColumnValue } from "../core/record-batch.js";
import type { ColumnPaths } from "./column-paths.js";
import { isEpochMillis } from "./iso-millis.js";

type Coercer = (value: unknown) => ColumnValue;

/** Which values a column type's coercer returns unchanged (ColumnCoercers.keeps): none. */
export const KEEPS_NOTHING = 0;
/** Strings, as they are. */
export const KEEPS_STRINGS = 1;
/** Numbers, as they are (NaN and -0 included). */
export const KEEPS_NUMBERS = 2;
/** Whole numbers of epoch milliseconds within a Date's range (`isEpochMillis`). */
export const KEEPS_EPOCH_MILLIS = 3;

/** Whether `value` is one the coercer of a column whose `keeps` code is `keeps` returns as it is. */
export function isKeptUnchanged(keeps: number, value: unknown): boolean {
  if (keeps === KEEPS_STRINGS) return typeof value === "string";
  if (keeps === KEEPS_NUMBERS) return typeof value === "number";
  return keeps === KEEPS_EPOCH_MILLIS && typeof value === "number" && isEpochMillis(value);
}

export class HitColumnValues {
  private readonly coercers: Coercer[];
  private readonly isText: boolean[];
  /** Per column, which values its coercer returns as they are (`keptUnchanged`). */
  private readonly keeps: Uint8Array;
  /** One hit's values, written to the columns only once every coercer took its value. */
  private readonly coerced: ColumnValue[];

  constructor(
    columns: readonly Column[],
    private readonly paths: ColumnPaths,
    coercers: ColumnCoercers,
  ) {
    this.coercers = columns.map((column) => coercers.coerce[column.type]);
    this.isText = columns.map((column) => column.type === "string" || column.type === "json");
    this.keeps = Uint8Array.from(columns, (column) => coercers.keeps[column.type]);
    this.coerced = columns.map(() => null);
  }

  /**
   * Writes each column's value, read from `values` (per slot, undefined: missing), at `at` in its array
   * of `into`; returns the characters written to text columns, or -1, with nothing written, when a
   * column's coercer refuses its value (the integer columns' rule).
   */
  write(values: readonly unknown[], into: ColumnValue[][], at: number): number {
    const { nestedSlot, flatSlot } = this.paths;
    const coerced = this.coerced;
    let textLength = 0;
    for (let column = 0; column < this.coercers.length; column++) {
      const flat = flatSlot[column] as number;
      let value = flat >= 0 ? values[flat] : undefined;
      if (value === undefined) value = values[nestedSlot[column] as number];
      // The values a column's coercer gives back unchanged skip the call (one call site for all types).
      let made: ColumnValue;
      try {
        made = isKeptUnchanged(this.keeps[column] as number, value)
          ? (value as ColumnValue)
          : (this.coercers[column] as Coercer)(value);
      } catch {
        return -1;
      }
      if (this.isText[column] === true && typeof made === "string") textLength += made.length;
      coerced[column] = made;
    }
    for (let column = 0; column < coerced.length; column++)
      (into[column] as ColumnValue[])[at] = coerced[column] as ColumnValue;
    return textLength;
  }
}
