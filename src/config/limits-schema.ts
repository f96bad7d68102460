// The `limits` schema: how hard a run may push the service and how long it keeps trying.
import { z } from "zod";
import { wholeNumber } from "../core/whole-number.js";
import { QUOTA_PRIORITIES } from "../quota-ledger/ledger-types.js";
import { parseDuration } from "./duration.js";

/** A progress interval: seconds, minutes or hours, `0s` (or `0`, `off`) for none. */
export const PROGRESS_INTERVAL_PATTERN = /^(0|[1-9][0-9]{0,4})(s|m|h)$/;
export const PROGRESS_INTERVAL_FORMS = "expected a duration such as 10s, 30s, 5m, or off";
const DEFAULT_PROGRESS_INTERVAL = "30s";

/** How a run shares the client's daily quota with a fleet through the quota ledger (docs/fleet.md). */
const quotaSchema = z
  .strictObject({
    ledger: z
      .string()
      .min(1)
      .refine(
        (url) => {
          try {
            return ["postgres:", "postgresql:"].includes(new URL(url).protocol);
          } catch {
            return false;
          }
        },
        { message: "is not a postgres:// or postgresql:// URL" },
      )
      .optional()
      .describe(
        "The quota ledger every run of this client shares, a PostgreSQL URL (`postgres://user:password@host:5432/db`), typically `${MDQ_QUOTA_LEDGER}`; the environment variable MDQ_QUOTA_LEDGER is read when this is omitted. Without either, the run is alone with the quota, as before.",
      ),
    priority: z
      .enum(QUOTA_PRIORITIES)
      .default("normal")
      .describe(
        "A lower-priority run spends only what the claims of higher-priority runs leave above its reserve; when they arrive it finishes its current slices and stops (exit 75). Default normal.",
      ),
    standing: z
      .union([z.literal("auto"), wholeNumber(1)])
      .optional()
      .describe(
        "Requests per quota day kept for this pipeline from the start of the day, before its run starts, and released once it finished for the day; `auto` keeps what its last complete day spent. Lower-priority runs leave it alone.",
      ),
    max_in_flight: wholeNumber(1)
      .max(10_000)
      .optional()
      .describe(
        "Requests in flight at once across every run of this client that shares the ledger. Unbounded when omitted.",
      ),
    alone_when_unreachable: z
      .boolean()
      .default(false)
      .describe(
        "Run alone (as without a ledger, within `quota_reserve`) when the ledger cannot be reached at the start, instead of stopping with exit 75. Default false.",
      ),
    lease_ms: wholeNumber(1000)
      .max(3_600_000)
      .default(60_000)
      .describe(
        "How long the ledger keeps a run's reserved requests without hearing from it; a killed run's block returns after this. The run renews it every third of it. Default 60000.",
      ),
    recheck_after_ms: wholeNumber(1000)
      .default(600_000)
      .describe(
        "Once the fleet's count says the day is spent and no run has reported for this long, one run may send one request to learn whether the service started a new quota day. Default 600000.",
      ),
  })
  .describe("Sharing the client's daily quota with other runs through the quota ledger.");

export const limitsSchema = z
  .strictObject({
    concurrency: wholeNumber(1)
      .max(64)
      .default(4)
      .describe(
        "Slices exported at the same time, and the most requests waiting for the service's answer at once; fewer while the service pushes back (429 throttles, 503, slower answers), then back up (adaptive concurrency). Default 4.",
      ),
    quota_reserve: wholeNumber(0)
      .default(0)
      .describe(
        "Daily requests left untouched; the run stops (exit 75, resumable) when only this many remain. Default 0.",
      ),
    max_retries_per_slice: wholeNumber(0)
      .max(100)
      .default(3)
      .describe(
        "Times a slice is restarted from its start after losing its paging context or a count mismatch, before the run stops. A request that spent its own retry budget stops the run at once instead. Default 3.",
      ),
    encode_threads: z
      .union([z.literal("auto"), wholeNumber(0).max(64)])
      .default("auto")
      .describe(
        "Deprecated, no effect: Parquet row groups are encoded on the main thread whatever the value (worker threads measured slower on two cores and took about 110 MB more). Still accepted so that pipelines naming it load; a run and `validate` warn once. Default auto.",
      ),
    quota: quotaSchema.prefault({}),
    max_requests: wholeNumber(1)
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
  // A zero (`0s`) is no duration, so it reads as off too.
  return typeof value === "number" ? undefined : parseDuration(value);
}
