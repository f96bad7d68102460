// The `source.window` schema: a word (`yesterday`) or { start, end, slice, settle }, resolved to
// instants against the `now` the loader injects, so "end after start" is checked before any request.
import { z } from "zod";
import { resolveDateMath, WINDOW_WORDS } from "../core/date-math.js";
import { DURATION_PATTERN, parseDuration } from "./duration.js";
import { countSlices, MAX_SLICES } from "./window.js";

export interface Window {
  start: Date;
  end: Date;
  /** Slice length in milliseconds, or "auto" (the planner picks from the probed counts). */
  slice_ms: number | "auto";
  /**
   * How long the service may take to make a record searchable: a slice ending after `now − settle`
   * is open (written, never recorded as complete, redone by the next run).
   */
  settle_ms: number;
  /** The instant the window was resolved against: the run's one "now" (`--now`, or its start). */
  now: Date;
  /**
   * The smallest time unit the sinks' paths name (`{hour}`: an hour, `{date}`: a day), which no slice
   * may cross (config/partition-grid.ts); undefined when no path names a time. Set with the sinks.
   */
  partition_ms?: number | undefined;
  /** The text as written, for v1 time_range, messages and the manifest. */
  expression: { start: string; end: string; slice: string };
}

/**
 * The default `settle`: the service indexes within minutes, so a quarter of an hour covers its usual
 * lag with room to spare, and is short enough that an hourly schedule settles the previous hour's
 * slices on the next run (an hourly `last-hour` run at hh:43 leaves only its last quarter hours open).
 */
const DEFAULT_SETTLE = "15m";

/** A duration that may be zero (`0s`: the service is searchable at once). */
const SETTLE_PATTERN = /^(0|[1-9][0-9]{0,5})(s|m|h|d|w)$/;

function pointSchema(now: Date, describe: string) {
  return z
    .string()
    .min(1)
    .superRefine((text, ctx) => {
      const result = resolveDateMath(text, now);
      if (!result.ok) ctx.addIssue({ code: "custom", message: `"${text}" ${result.reason}` });
    })
    .describe(describe);
}

export function createWindowSchema(now: Date) {
  const range = z
    .strictObject({
      start: pointSchema(
        now,
        "First instant of the window (inclusive): ISO 8601 with zone, date-math (now-1d/d), or yesterday, today, last-hour. Required.",
      ),
      end: pointSchema(now, "End of the window (exclusive), same forms as start. Default now.").default(
        "now",
      ),
      slice: z
        .union([
          z.literal("auto"),
          z.string().regex(DURATION_PATTERN, "expected a duration such as 15m, 1h, 1d"),
        ])
        .default("auto")
        .describe(
          "Slice length (15m, 1h, 1d, 1w), the unit of work, retry and commit; auto lets the planner choose. Default auto.",
        ),
      settle: z
        .string()
        .regex(SETTLE_PATTERN, "expected a duration such as 0s, 5m, 15m, 1h")
        .default(DEFAULT_SETTLE)
        .describe(
          "How long the service may take to make a record searchable (0s, 5m, 15m, 1h). A slice that ends after now minus settle is open: written, never recorded as complete, and redone by the next run until it has settled. Default 15m.",
        ),
    })
    .superRefine((value, ctx) => {
      const start = resolveDateMath(value.start, now);
      const end = resolveDateMath(value.end, now);
      if (!start.ok || !end.ok) return;
      if (end.date.getTime() <= start.date.getTime()) {
        ctx.addIssue({
          code: "custom",
          path: ["end"],
          message: `the window ends (${end.date.toISOString()}) before or when it starts (${start.date.toISOString()}); end must be after start`,
        });
        return;
      }
      const sliceMs = value.slice === "auto" ? undefined : parseDuration(value.slice);
      if (sliceMs !== undefined && countSlices(start.date, end.date, sliceMs) > MAX_SLICES) {
        ctx.addIssue({
          code: "custom",
          path: ["slice"],
          message: `cuts the window into more than ${MAX_SLICES} slices; use a longer slice`,
        });
      }
    });
  const word = z.enum(Object.keys(WINDOW_WORDS) as [keyof typeof WINDOW_WORDS]);
  return z
    .union([word, range])
    .transform((value): Window => {
      const spec =
        typeof value === "string" ? { ...WINDOW_WORDS[value], slice: "auto", settle: DEFAULT_SETTLE } : value;
      // Both ends were checked above, so resolution cannot fail here.
      const start = resolveDateMath(spec.start, now);
      const end = resolveDateMath(spec.end, now);
      return {
        start: start.ok ? start.date : new Date(Number.NaN),
        end: end.ok ? end.date : new Date(Number.NaN),
        slice_ms: spec.slice === "auto" ? "auto" : (parseDuration(spec.slice) ?? "auto"),
        // `0s` (any zero) is no duration: 0.
        settle_ms: parseDuration(spec.settle) ?? 0,
        now,
        expression: { start: spec.start, end: spec.end, slice: spec.slice },
      };
    })
    .describe(
      "The time window exported: { start, end, slice, settle }, or one of yesterday, today, last-hour (settle 15m).",
    );
}
