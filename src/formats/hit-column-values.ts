// The second half of reading a hit's columns from its bytes: the values found for the column paths,
// one per slot, become each column's Parquet value, coerced exactly as the parsed path coerces them
// (`parquetCoercers`), with the calls skipped for values a coercer returns as they are.
import type { Column } from "../core/contracts.js";
import type { Coercer, ParquetValue } from "./coerce-value.js";
import type { ColumnPaths } from "./column-paths.js";
import { isKeptUnchanged, keptUnchanged, parquetCoercers } from "./parquet/coercers.js";

export class HitColumnValues {
  private readonly coercers: Coercer[];
  private readonly isText: boolean[];
  /** Per column, which values its coercer returns as they are (`keptUnchanged`). */
  private readonly keeps: Uint8Array;

  constructor(
    columns: readonly Column[],
    private readonly paths: ColumnPaths,
  ) {
    this.coercers = columns.map((column) => parquetCoercers[column.type]);
    this.isText = columns.map((column) => column.type === "string" || column.type === "json");
    this.keeps = Uint8Array.from(columns, (column) => keptUnchanged[column.type]);
  }

  /**
   * Pushes each column's value, read from `values` (per slot, undefined: missing), onto its array of
   * `into`; returns the characters written to text columns, or -1, with nothing pushed, when a
   * column's coercer refuses its value (the integer columns' rule).
   */
  write(values: readonly unknown[], into: ParquetValue[][]): number {
    const { nestedSlot, flatSlot } = this.paths;
    let textLength = 0;
    for (let column = 0; column < this.coercers.length; column++) {
      const flat = flatSlot[column] as number;
      let value = flat >= 0 ? values[flat] : undefined;
      if (value === undefined) value = values[nestedSlot[column] as number];
      // The values a column's coercer gives back unchanged skip the call (one call site for all types).
      let coerced: ParquetValue;
      try {
        coerced = isKeptUnchanged(this.keeps[column] as number, value)
          ? (value as ParquetValue)
          : (this.coercers[column] as Coercer)(value);
      } catch {
        for (let written = 0; written < column; written++) (into[written] as ParquetValue[]).pop();
        return -1;
      }
      if (this.isText[column] === true && typeof coerced === "string") textLength += coerced.length;
      (into[column] as ParquetValue[]).push(coerced);
    }
    return textLength;
  }
}
