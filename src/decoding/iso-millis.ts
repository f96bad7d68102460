// A timestamp column's value read from its bytes: the fixed ISO 8601 form the service sends
// (`2026-11-21T10:00:00.123Z`, or without the fraction or the Z: UTC) as epoch milliseconds, with
// exactly the rules of parquet/coercers.ts' timestampCoercer fast path (`partsMillis`, which both
// use), so no string is made for it. Anything else is left to the string and the coercer.
import { daysInMonth } from "./iso-text.js";

/** The number of `length` digits at `at`, or -1 when one of them is not a digit. */
function digits(bytes: Uint8Array, at: number, length: number): number {
  let value = 0;
  for (let i = at; i < at + length; i++) {
    const code = (bytes[i] as number) - 48;
    if (code < 0 || code > 9) return -1;
    value = value * 10 + code;
  }
  return value;
}

/** Turns a day into its first millisecond; a page's timestamps mostly share a few days. */
export class DayStarts {
  private lastDay = -1;
  private lastStart = 0;

  /** `Date.UTC(year, month - 1, day)`. */
  of(year: number, month: number, day: number): number {
    const key = (year * 100 + month) * 100 + day;
    if (key !== this.lastDay) {
      this.lastStart = Date.UTC(year, month - 1, day);
      this.lastDay = key;
    }
    return this.lastStart;
  }
}

/**
 * The epoch milliseconds timestampCoercer gives the ASCII text `bytes[from, to)`, or NaN when its
 * fast path would not read it (another form, a day the month lacks, hour 24, years before 100: the
 * string and the coercer decide those).
 */
export function isoMillis(bytes: Uint8Array, from: number, to: number, days: DayStarts): number {
  // With or without the Z: text without an offset is UTC too.
  const length = bytes[to - 1] === 90 ? to - from - 1 : to - from;
  if (length !== 23 && length !== 19) return Number.NaN;
  if (
    bytes[from + 4] !== 45 ||
    bytes[from + 7] !== 45 || // -
    bytes[from + 10] !== 84 || // T
    bytes[from + 13] !== 58 ||
    bytes[from + 16] !== 58 || // :
    (length === 23 && bytes[from + 19] !== 46) // .
  )
    return Number.NaN;
  const year = digits(bytes, from, 4);
  const month = digits(bytes, from + 5, 2);
  const day = digits(bytes, from + 8, 2);
  const hour = digits(bytes, from + 11, 2);
  const minute = digits(bytes, from + 14, 2);
  const second = digits(bytes, from + 17, 2);
  const millis = length === 23 ? digits(bytes, from + 20, 3) : 0;
  return partsMillis(year, month, day, hour, minute, second, millis, days);
}

/**
 * The epoch milliseconds of the parts read from the text (-1 for a part that was not digits), or NaN
 * outside the fast path's rules: a day the month lacks, hour 24 and years before 100 (which Date.UTC
 * moves) are left to the coercer. The text and the bytes readers share it, so both take exactly the
 * same dates.
 */
export function partsMillis(
  year: number,
  month: number,
  day: number,
  hour: number,
  minute: number,
  second: number,
  millis: number,
  days: DayStarts,
): number {
  if (
    year < 100 ||
    month < 1 ||
    month > 12 ||
    day < 1 ||
    (day > 28 && day > daysInMonth(year, month)) ||
    hour < 0 ||
    hour > 23 ||
    minute < 0 ||
    minute > 59 ||
    second < 0 ||
    second > 59 ||
    millis < 0
  )
    return Number.NaN;
  return days.of(year, month, day) + ((hour * 60 + minute) * 60 + second) * 1000 + millis;
}

/** The range of a JavaScript Date, which a timestamp column keeps to. */
export const MAX_EPOCH_MILLIS = 8.64e15;

/** Whether a timestamp column takes `millis` as it is: a whole number of milliseconds within its range. */
export function isEpochMillis(millis: number): boolean {
  return Number.isInteger(millis) && Math.abs(millis) <= MAX_EPOCH_MILLIS;
}
