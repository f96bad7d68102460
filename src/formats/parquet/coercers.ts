// The coercers of coerce-value.ts, two of them made cheaper for the Parquet encoder and giving the same
// values. int64: a whole number within 2^53 stays a number (the encoder writes it as INT64 without a
// bigint, which is an allocation per value); beyond, a bigint as before, so each value has one form.
// Timestamps as the service sends them, read to epoch milliseconds without Date.parse: the fixed ISO
// 8601 form `2026-11-21T10:00:00.123Z` (or without the fraction, or the Z) is read digit by digit,
// which costs a tenth of a full parse. Anything else (other forms and offsets, a day the month lacks, hour 24, years
// before 100, which Date.UTC moves) goes to the column's coercer, so the value is always what the
// coercer gives.
import type { ColumnType } from "../../core/contracts.js";
import type { ColumnCoercers } from "../../core/hit-reader.js";
import { coercers } from "../coerce-value.js";
import type { Coercer, ParquetValue } from "../coerce-value.js";
import { DayStarts, partsMillis } from "../../decoding/iso-millis.js";
import {
  KEEPS_EPOCH_MILLIS,
  KEEPS_NOTHING,
  KEEPS_NUMBERS,
  KEEPS_STRINGS,
} from "../../decoding/hit-column-values.js";

const coerceTimestamp = coercers.timestamp;
const coerceInt64 = coercers.int64;
const SAFE = BigInt(Number.MAX_SAFE_INTEGER);
/** A row group's timestamps mostly share a few days. */
const days = new DayStarts();

/** `coercers.int64`, with values within 2^53 as numbers. */
export function int64Coercer(value: unknown): ParquetValue {
  if (typeof value === "number" && Number.isSafeInteger(value)) return value === 0 ? 0 : value;
  const coerced = coerceInt64(value);
  return typeof coerced === "bigint" && coerced >= -SAFE && coerced <= SAFE ? Number(coerced) : coerced;
}

/** The number of `length` digits at `at`, or -1 when one of them is not a digit. */
function digits(text: string, at: number, length: number): number {
  let value = 0;
  for (let i = at; i < at + length; i++) {
    const code = text.charCodeAt(i) - 48;
    if (code < 0 || code > 9) return -1;
    value = value * 10 + code;
  }
  return value;
}

/** `coercers.timestamp`, read faster for ISO text in UTC (with `Z`, or without an offset: UTC too). */
export function timestampCoercer(value: unknown): ParquetValue {
  if (typeof value !== "string") return coerceTimestamp(value);
  // 2026-11-21T10:00:00 (19), with .123 (23), each with or without a Z.
  const zoned = value.charCodeAt(value.length - 1) === 90;
  const length = zoned ? value.length - 1 : value.length;
  if (
    (length !== 23 && length !== 19) ||
    value.charCodeAt(4) !== 45 ||
    value.charCodeAt(7) !== 45 || // -
    value.charCodeAt(10) !== 84 || // T
    value.charCodeAt(13) !== 58 ||
    value.charCodeAt(16) !== 58 || // :
    (length === 23 && value.charCodeAt(19) !== 46) // .
  )
    return coerceTimestamp(value);
  const year = digits(value, 0, 4);
  const month = digits(value, 5, 2);
  const day = digits(value, 8, 2);
  const hour = digits(value, 11, 2);
  const minute = digits(value, 14, 2);
  const second = digits(value, 17, 2);
  const millis = length === 23 ? digits(value, 20, 3) : 0;
  const read = partsMillis(year, month, day, hour, minute, second, millis, days);
  return Number.isNaN(read) ? coerceTimestamp(value) : read;
}

/** Per column type, what the encoder's column buffers coerce with. */
export const parquetCoercers: Readonly<Record<ColumnType, Coercer>> = {
  ...coercers,
  int64: int64Coercer,
  timestamp: timestampCoercer,
};

/**
 * Per column type, the values `parquetCoercers` returns unchanged, so a caller that reads many values
 * of many types (the hit columns reader) can skip the call for those. Kept beside the coercers: a
 * coercer that starts to change such a value must change this too (parquet/coercers.test.ts holds the
 * two together).
 */
export const keptUnchanged: Readonly<Record<ColumnType, number>> = {
  string: KEEPS_STRINGS,
  json: KEEPS_NOTHING,
  double: KEEPS_NUMBERS,
  int64: KEEPS_NOTHING,
  int32: KEEPS_NOTHING,
  boolean: KEEPS_NOTHING,
  timestamp: KEEPS_EPOCH_MILLIS,
};

/** What the Parquet format hands the columns reader (Format.takes): its coercers and what they keep. */
export const parquetColumnCoercers: ColumnCoercers = { coerce: parquetCoercers, keeps: keptUnchanged };
