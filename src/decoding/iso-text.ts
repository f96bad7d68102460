// ISO 8601 text as epoch milliseconds, read the way the generated DDL reads it: with its offset when it
// has one, as UTC when it has none (a date alone is that day's midnight UTC). Date.parse is not used:
// it reads a date and time without an offset in the exporter's own time zone, so the instant written
// would depend on where the exporter ran. Calendar dates are checked (Date.parse rolls 2026-02-30
// into March); a text that is not such a time is NaN, and its column gets null.

/**
 * `YYYY-MM-DD`, then optionally `T` (or a space) `hh:mm`, `:ss`, a fraction of any length (`.` or
 * `,`), and `Z` or an offset `±hh`, `±hhmm`, `±hh:mm`. Years of six digits take a sign, as in ECMAScript.
 */
const ISO_TIME =
  /^(\d{4}|[+-]\d{6})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?(?:[Zz]|([+-])(\d{2})(?::?(\d{2}))?)?)?$/;

/** 400 Gregorian years, in milliseconds: the calendar repeats after them. */
const FOUR_CENTURIES_MS = 146_097 * 86_400_000;

/** Days in `month` (1–12) of `year`, proleptic Gregorian. */
export function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** The first three digits of a fraction as milliseconds (later digits are cut, as Date.parse does). */
function fractionMillis(digits: string | undefined): number {
  if (digits === undefined) return 0;
  return Number(digits.slice(0, 3).padEnd(3, "0"));
}

/**
 * The epoch milliseconds of ISO 8601 `text`, in UTC when it names no offset; NaN when it is not such a
 * time or names a day, hour, minute or second that does not exist (`24:00:00` is the next midnight).
 * @example isoTextMillis("2026-11-27T10:00:00") // Date.UTC(2026, 10, 27, 10), whatever process.env.TZ says
 */
export function isoTextMillis(text: string): number {
  const match = ISO_TIME.exec(text);
  if (match === null) return Number.NaN;
  const [, yearText, monthText, dayText, hourText, minuteText, secondText, fraction, sign] = match;
  const year = Number(yearText);
  const month = Number(monthText);
  const day = Number(dayText);
  const hour = Number(hourText ?? 0);
  const minute = Number(minuteText ?? 0);
  const second = Number(secondText ?? 0);
  const millis = fractionMillis(fraction);
  if (yearText === "-000000" || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month))
    return Number.NaN;
  const endOfDay = hour === 24 && minute === 0 && second === 0 && millis === 0;
  if ((hour > 23 && !endOfDay) || minute > 59 || second > 59) return Number.NaN;
  let offsetMinutes = 0;
  if (sign !== undefined) {
    const offsetHours = Number(match[9]);
    const offsetMins = Number(match[10] ?? 0);
    if (offsetHours > 23 || offsetMins > 59) return Number.NaN;
    offsetMinutes = (sign === "-" ? -1 : 1) * (offsetHours * 60 + offsetMins);
  }
  // Date.UTC reads years 0 to 99 as 1900 to 1999; four centuries later the calendar is the same.
  const local =
    year >= 0 && year < 100
      ? Date.UTC(year + 400, month - 1, day, hour, minute, second, millis) - FOUR_CENTURIES_MS
      : Date.UTC(year, month - 1, day, hour, minute, second, millis);
  return local - offsetMinutes * 60_000;
}
