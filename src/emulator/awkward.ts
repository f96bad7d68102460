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

// A pure memo of the last minute's prefix: consecutive records share it, and formatting only the
// seconds is several times faster than Date#toISOString on the generator's hot path.
const minuteCache = { minute: Number.NaN, prefix: "" };

/** `YYYY-MM-DDTHH:MM:SS.mmmZ`, as Date#toISOString. */
export function isoTime(ms: number): string {
  const minute = Math.floor(ms / 60_000);
  if (minute !== minuteCache.minute) {
    minuteCache.minute = minute;
    minuteCache.prefix = new Date(minute * 60_000).toISOString().slice(0, 17);
  }
  const rest = ms - minute * 60_000;
  const seconds = Math.floor(rest / 1000);
  const millis = rest - seconds * 1000;
  const pad = millis < 10 ? "00" : millis < 100 ? "0" : "";
  return `${minuteCache.prefix}${seconds < 10 ? "0" : ""}${seconds}.${pad}${millis}Z`;
}
