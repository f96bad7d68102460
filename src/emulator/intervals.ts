// Date-histogram bucket keys for fixed intervals (`90m`, `1h`, `1d`) and calendar intervals (`month`).

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const CALENDAR: Record<string, string> = {
  minute: "m",
  "1m": "m",
  hour: "h",
  "1h": "h",
  day: "d",
  "1d": "d",
  week: "w",
  "1w": "w",
  month: "M",
  "1M": "M",
  quarter: "q",
  "1q": "q",
  year: "y",
  "1y": "y",
};

function fixedMs(interval: string): number {
  const match = /^(\d+)(ms|s|m|h|d)$/.exec(interval);
  if (!match) return 86_400_000;
  return Number(match[1]) * (UNIT_MS[match[2] ?? "d"] ?? 86_400_000);
}

export function intervalKey(ms: number, interval: string, calendar: boolean): number {
  const unit = calendar ? CALENDAR[interval] : undefined;
  if (!unit || unit === "m" || unit === "h" || unit === "d") {
    const size = unit ? (UNIT_MS[unit] ?? 86_400_000) : fixedMs(interval);
    return ms - (((ms % size) + size) % size);
  }
  const date = new Date(ms);
  const year = date.getUTCFullYear();
  if (unit === "w") {
    const day = Date.UTC(year, date.getUTCMonth(), date.getUTCDate());
    return day - ((date.getUTCDay() + 6) % 7) * 86_400_000;
  }
  if (unit === "M") return Date.UTC(year, date.getUTCMonth(), 1);
  if (unit === "q") return Date.UTC(year, Math.floor(date.getUTCMonth() / 3) * 3, 1);
  return Date.UTC(year, 0, 1);
}

export function nextIntervalKey(key: number, interval: string, calendar: boolean): number {
  const unit = calendar ? CALENDAR[interval] : undefined;
  if (!unit || unit === "m" || unit === "h" || unit === "d") {
    return key + (unit ? (UNIT_MS[unit] ?? 86_400_000) : fixedMs(interval));
  }
  if (unit === "w") return key + 7 * 86_400_000;
  const date = new Date(key);
  const months = unit === "M" ? 1 : unit === "q" ? 3 : 12;
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + months, 1);
}
