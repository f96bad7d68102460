// Points in time as pipelines write them: ISO timestamps, date-math (`now-1d/d`, `now/d`, `now-6h`,
// `2026-11-21||+1d`) and the words `yesterday`, `today`, `last-hour`, resolved against an injected `now`.
// The one date-math grammar: config/ resolves windows with it, and the emulator its v1 `time_range`
// (`now-<n><unit>/<unit>`, a part of this grammar) and the `now…` bounds of its range filters.

/** Date-math units, as the search engine spells them (`M` months, `m` minutes; `H` is hours too). */
type MathUnit = "y" | "M" | "w" | "d" | "h" | "H" | "m" | "s";

/** Each word is the start of the period it names; as a whole window it spans that period. */
export const WINDOW_WORDS = {
  yesterday: { start: "now-1d/d", end: "now/d" },
  today: { start: "now/d", end: "now" },
  "last-hour": { start: "now-1h/h", end: "now/h" },
} as const;

type WindowWord = keyof typeof WINDOW_WORDS;

export function isWindowWord(text: string): text is WindowWord {
  return Object.hasOwn(WINDOW_WORDS, text);
}

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const OPERATION = /([+-])(\d+)([yMwdhHms])|\/([yMwdhHms])/y;

type DateMathResult = { ok: true; date: Date } | { ok: false; reason: string };

/**
 * Resolves a point in time against `now`. Rounding (`/d`) is in UTC, and weeks start on Monday,
 * as the search engine rounds.
 * @example resolveDateMath("now-1d/d", new Date("2026-11-21T15:00:00Z")) // 2026-11-20T00:00:00Z
 */
export function resolveDateMath(text: string, now: Date): DateMathResult {
  const expression = text.trim();
  if (isWindowWord(expression)) return resolveDateMath(WINDOW_WORDS[expression].start, now);
  if (ISO_DATE_TIME.test(expression) || ISO_DATE.test(expression)) return parseIso(expression);
  let anchor: Date;
  let rest: string;
  if (expression.startsWith("now")) {
    anchor = new Date(now.getTime());
    rest = expression.slice(3);
  } else if (expression.includes("||")) {
    const [base = "", tail = ""] = expression.split("||", 2);
    const parsed = parseIso(base);
    if (!parsed.ok) return parsed;
    anchor = parsed.date;
    rest = tail;
  } else if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(expression)) {
    return { ok: false, reason: "an ISO timestamp needs a zone: add Z or an offset such as +01:00" };
  } else {
    return {
      ok: false,
      reason: "expected an ISO timestamp, date-math such as now-1d/d, or yesterday, today, last-hour",
    };
  }
  return applyOperations(anchor, rest);
}

/**
 * An instant written as an ISO 8601 timestamp with its zone (`2026-11-26T02:43:57Z`): what `--now`
 * takes, like a scheduler's logical date. Date-math is refused: it would need a "now" of its own.
 */
export function parseInstant(text: string): DateMathResult {
  const expression = text.trim();
  if (!ISO_DATE_TIME.test(expression))
    return {
      ok: false,
      reason: "is not an ISO 8601 timestamp with a zone, such as 2026-11-26T02:43:57Z",
    };
  return parseIso(expression);
}

function parseIso(text: string): DateMathResult {
  const date = new Date(ISO_DATE.test(text) ? `${text}T00:00:00Z` : text);
  if (Number.isNaN(date.getTime())) return { ok: false, reason: "is not a valid calendar date and time" };
  return { ok: true, date };
}

function applyOperations(anchor: Date, rest: string): DateMathResult {
  let date = anchor;
  OPERATION.lastIndex = 0;
  while (OPERATION.lastIndex < rest.length) {
    const at = OPERATION.lastIndex;
    const match = OPERATION.exec(rest);
    if (match === null) {
      return { ok: false, reason: `cannot read date-math at "${rest.slice(at)}" (expected +1d, -6h or /d)` };
    }
    const [, sign, amount, addUnit, roundUnit] = match;
    date =
      roundUnit !== undefined
        ? roundDown(date, roundUnit as MathUnit)
        : addTime(date, (sign === "-" ? -1 : 1) * Number(amount), addUnit as MathUnit);
  }
  return { ok: true, date };
}

/** The UTC field a unit adds to; a week adds seven days. */
const UNIT_FIELD = {
  y: "FullYear",
  M: "Month",
  w: "Date",
  d: "Date",
  h: "Hours",
  H: "Hours",
  m: "Minutes",
  s: "Seconds",
} as const;

function addTime(date: Date, amount: number, unit: MathUnit): Date {
  const next = new Date(date.getTime());
  const field = UNIT_FIELD[unit];
  next[`setUTC${field}`](next[`getUTC${field}`]() + (unit === "w" ? 7 * amount : amount));
  return next;
}

/** The units a rounding keeps, largest first: rounding to one keeps the fields up to it. */
const ROUNDED: readonly MathUnit[] = ["y", "M", "d", "h", "m", "s"];

function roundDown(date: Date, unit: MathUnit): Date {
  if (unit === "w") {
    // getUTCDay is 0 on Sunday; weeks start on Monday.
    const day = roundDown(date, "d");
    day.setUTCDate(day.getUTCDate() - ((date.getUTCDay() + 6) % 7));
    return day;
  }
  const kept = ROUNDED.slice(0, ROUNDED.indexOf(unit === "H" ? "h" : unit) + 1);
  const [y = 0, mo = 0, d = 1, h = 0, mi = 0, s = 0] = kept.map((part) =>
    date[`getUTC${UNIT_FIELD[part]}`](),
  );
  return new Date(Date.UTC(y, mo, d, h, mi, s));
}
