// Realistic awkward text for generated records: unicode, quotes, newlines, backslashes, very long text.
import { pick } from "./random.js";
import type { Random } from "./random.js";

const PLAIN = [
  "Request completed",
  "Connection pool exhausted, retrying",
  "User login succeeded",
  "Cache miss for key",
  "Scheduled job started",
  "Health check passed",
  "Timeout while waiting for upstream",
];

const AWKWARD = [
  "Value \"quoted\" and 'single' quoted",
  "Line one\nLine two\r\n\tindented line three",
  "Unicode: Zürich, Kraków, 東京, emoji 🚀, RTL עברית",
  "Path C:\\Program Files\\app\\bin and a backslash \\",
  "Control chars \u0001\u001f and a NUL-free end",
  'JSON-looking text {"a": [1, 2]} inside a message',
  "",
];

/** A message: mostly plain; sometimes awkward; rarely very long. */
export function messageText(random: Random, n: number): string {
  const roll = random();
  if (roll < 0.002) return `Stack trace follows: ${"at frame (module.js:1:1)\n".repeat(200)}`;
  if (roll < 0.08) return pick(random, AWKWARD);
  return `${pick(random, PLAIN)} #${n}`;
}

/** A short name that is sometimes awkward (quotes, unicode). */
export function nameText(random: Random, base: string, n: number): string {
  const roll = random();
  if (roll < 0.03) return `${base} "nightly" ü-${n}`;
  if (roll < 0.05) return `${base}\twith tab ${n}`;
  return `${base}-${n}`;
}

// Formatting timestamps is on the generator's hot path: a memo of the current day's prefix and
// precomputed digit strings are several times faster than Date#toISOString. The memo is pure.
const dayCache = { day: Number.NaN, prefix: "" };
const TWO_DIGITS = Array.from({ length: 60 }, (_, i) => String(i).padStart(2, "0"));
const THREE_DIGITS = Array.from({ length: 1000 }, (_, i) => String(i).padStart(3, "0"));
const DAY_MS = 86_400_000;

/** `YYYY-MM-DDTHH:MM:SS.mmmZ`, as Date#toISOString. */
export function isoTime(ms: number): string {
  const day = Math.floor(ms / DAY_MS);
  if (day !== dayCache.day) {
    dayCache.day = day;
    dayCache.prefix = new Date(day * DAY_MS).toISOString().slice(0, 11);
  }
  let rest = ms - day * DAY_MS;
  const hours = Math.floor(rest / 3_600_000);
  rest -= hours * 3_600_000;
  const minutes = Math.floor(rest / 60_000);
  rest -= minutes * 60_000;
  const seconds = Math.floor(rest / 1000);
  return `${dayCache.prefix}${TWO_DIGITS[hours]}:${TWO_DIGITS[minutes]}:${TWO_DIGITS[seconds]}.${THREE_DIGITS[rest - seconds * 1000]}Z`;
}
