// The v1 `time_range` date-math (now-<n><unit>/<unit>): the window runs from the rounded start to now.

const FIXED_MS: Record<string, number> = {
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  H: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
};

function subtract(ms: number, n: number, unit: string): number {
  const date = new Date(ms);
  if (unit === "y") return date.setUTCFullYear(date.getUTCFullYear() - n);
  if (unit === "M") return date.setUTCMonth(date.getUTCMonth() - n);
  return ms - n * (FIXED_MS[unit] ?? 0);
}

function roundDown(ms: number, unit: string): number {
  const date = new Date(ms);
  if (unit === "y") return Date.UTC(date.getUTCFullYear(), 0, 1);
  if (unit === "M") return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
  if (unit === "w") {
    const day = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate());
    return day - ((date.getUTCDay() + 6) % 7) * 86_400_000;
  }
  const size = FIXED_MS[unit] ?? 1;
  return ms - (ms % size);
}

export function dateMathWindow(expression: string, now: number): { startMs: number; endMs: number } {
  const match = /^now-(\d+)([yMwdhHms])\/([yMwdhHms])$/.exec(expression);
  if (!match) return { startMs: now, endMs: now };
  return {
    startMs: roundDown(subtract(now, Number(match[1]), match[2] ?? "d"), match[3] ?? "d"),
    endMs: now,
  };
}
