// The `limits` schema: how hard a run may push the service and how long it keeps trying.
import { z } from "zod";

/** A progress interval: seconds, minutes or hours, `0s` (or `0`, `off`) for none. */
export const PROGRESS_INTERVAL_PATTERN = /^(0|[1-9][0-9]{0,4})(s|m|h)$/;
export const PROGRESS_INTERVAL_FORMS = "expected a duration such as 10s, 30s, 5m, or off";
export const DEFAULT_PROGRESS_INTERVAL = "30s";

export const limitsSchema = z
  .strictObject({
    concurrency: z
      .number()
      .int()
      .min(1)
      .max(64)
      .default(4)
      .describe(
        "Slices exported at the same time, and the most requests waiting for the service's answer at once; fewer while the service pushes back (429 throttles, 503, slower answers), then back up (adaptive concurrency). Default 4.",
      ),
    quota_reserve: z
      .number()
      .int()
      .min(0)
      .default(0)
      .describe(
        "Daily requests left untouched; the run stops (exit 75, resumable) when only this many remain. Default 0.",
      ),
    max_retries_per_slice: z
      .number()
      .int()
      .min(0)
      .max(100)
      .default(3)
      .describe(
        "Times a slice is restarted from its start after losing its paging context or a count mismatch, before the run stops. A request that spent its own retry budget stops the run at once instead. Default 3.",
      ),
    encode_threads: z
      .union([z.literal("auto"), z.number().int().min(0).max(64)])
      .default("auto")
      .describe(
        "Worker threads that encode Parquet row groups while the main thread reads pages. auto: one per core the process may use beyond two, at most `concurrency` (none on two cores, where a worker measured slower than the main thread, for nearly twice its CPU per record and about 110 MB more); 0 encodes on the main thread. Default auto.",
      ),
    max_requests: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe("Refuse to start when the plan estimates more requests than this. No limit when omitted."),
    progress_interval: z
      .union([z.string(), z.number()])
      // One message for every wrong value, be it a word, a bare number or a duration too long.
      .superRefine((value, ctx) => {
        if (
          value !== 0 &&
          value !== "off" &&
          !(typeof value === "string" && PROGRESS_INTERVAL_PATTERN.test(value))
        )
          ctx.addIssue({ code: "custom", message: `${JSON.stringify(value)}: ${PROGRESS_INTERVAL_FORMS}` });
      })
      .default(DEFAULT_PROGRESS_INTERVAL)
      .describe(
        "How often a run without a terminal (cron, Kubernetes) logs a progress line: slices done and total, records, rate, quota left, ETA (10s, 30s, 5m); off or 0 logs none. On a terminal the line is redrawn in place instead, unless off. Default 30s.",
      ),
  })
  .describe("Concurrency, quota and retry limits.");

export type Limits = z.output<typeof limitsSchema>;

/** Milliseconds between two progress lines, or undefined when they are off (`off`, `0`, `0s`). */
export function progressIntervalMs(value: Limits["progress_interval"]): number | undefined {
  if (typeof value === "number" || value === "off") return undefined;
  const match = PROGRESS_INTERVAL_PATTERN.exec(value);
  if (match === null) return undefined;
  const ms = Number(match[1]) * (match[2] === "h" ? 3_600_000 : match[2] === "m" ? 60_000 : 1_000);
  return ms === 0 ? undefined : ms;
}
