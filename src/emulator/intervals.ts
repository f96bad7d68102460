// Date-histogram bucket keys for fixed intervals (`90m`, `1h`, `1d`) and calendar intervals (`month`).
import { CALENDAR_UNITS } from "../api/wire/aggs.js";

const DAY_MS = 86_400_000;
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: DAY_MS };
const CALENDAR: Record<string, string> = Object.fromEntries(
  Object.entries(CALENDAR_UNITS).flatMap(([name, unit]) => [
    [name, unit],
    [`1${unit}`, unit],
  ]),
);

/** An interval's length in ms, or its calendar unit when its length varies (week, month, quarter, year). */
function stepOf(interval: string, calendar: boolean): number | string {
  const unit = calendar && Object.hasOwn(CALENDAR, interval) ? CALENDAR[interval] : undefined;
  if (unit !== undefined) return UNIT_MS[unit] ?? unit;
  const match = /^(\d+)(ms|s|m|h|d)$/.exec(interval);
  if (!match) return DAY_MS;
  return Number(match[1]) * (UNIT_MS[match[2] ?? "d"] ?? DAY_MS);
}

export function intervalKey(ms: number, interval: string, calendar: boolean): number {
  const step = stepOf(interval, calendar);
  if (typeof step === "number") return ms - (((ms % step) + step) % step);
  const date = new Date(ms);
  const year = date.getUTCFullYear();
  if (step === "w") {
    const day = Date.UTC(year, date.getUTCMonth(), date.getUTCDate());
    return day - ((date.getUTCDay() + 6) % 7) * DAY_MS;
  }
  if (step === "M") return Date.UTC(year, date.getUTCMonth(), 1);
  if (step === "q") return Date.UTC(year, Math.floor(date.getUTCMonth() / 3) * 3, 1);
  return Date.UTC(year, 0, 1);
}

export function nextIntervalKey(key: number, interval: string, calendar: boolean): number {
  const step = stepOf(interval, calendar);
  if (typeof step === "number") return key + step;
  if (step === "w") return key + 7 * DAY_MS;
  const date = new Date(key);
  const months = step === "M" ? 1 : step === "q" ? 3 : 12;
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + months, 1);
}
