// The `recheck` section: how committed slices are re-counted for records the service received late
// (pipeline/output-state/recheck.ts runs it).
import { z } from "zod";
import { wholeNumber } from "../core/whole-number.js";

export const recheckSchema = z
  .strictObject({
    last_days: wholeNumber(0)
      .max(366)
      .default(0)
      .describe(
        "On every run, also re-check the committed slices of this many days before the window's start (one date histogram), and export again those whose count at the service rose. 0: only with --recheck, over the window.",
      ),
    on_decrease: z
      .enum(["keep", "replace"])
      .default("keep")
      .describe(
        "When the service now counts fewer records in a committed slice than were exported (retention expired, a partial result, an index outage): keep the files and warn (keep), or export the slice again, removing what the service no longer returns (replace). Default keep.",
      ),
  })
  .describe("Re-checking committed slices for records the service received late.");

export type RecheckConfig = z.infer<typeof recheckSchema>;
