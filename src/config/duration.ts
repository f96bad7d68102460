// Durations written with a unit (`15m`, `1h`, `1d`), as pipelines spell slice sizes and intervals.

const UNIT_MS = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 } as const;

type DurationUnit = keyof typeof UNIT_MS;

/** The pattern a duration must match; shared with the schema so editors see it too. */
export const DURATION_PATTERN = /^([1-9][0-9]{0,5})(s|m|h|d|w)$/;

/**
 * Milliseconds of a duration such as `15m`, `1h`, `2d`, `1w`; undefined when the text is not one.
 * Months and years are not durations (their length varies), so they are refused here.
 * @example parseDuration("15m") // 900000
 */
export function parseDuration(text: string): number | undefined {
  const match = DURATION_PATTERN.exec(text.trim());
  if (match === null) return undefined;
  const amount = Number(match[1]);
  const unit = match[2] as DurationUnit;
  return amount * UNIT_MS[unit];
}

/** Formats milliseconds back into the largest whole unit, for messages (`3600000` → `1h`). */
export function formatDuration(ms: number): string {
  for (const unit of ["w", "d", "h", "m", "s"] as const) {
    if (ms % UNIT_MS[unit] === 0 && ms >= UNIT_MS[unit]) return `${ms / UNIT_MS[unit]}${unit}`;
  }
  return `${ms}ms`;
}
