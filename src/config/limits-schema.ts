// The `limits` schema: how hard a run may push the service and how long it keeps trying.
import { z } from "zod";

export const limitsSchema = z
  .strictObject({
    concurrency: z
      .number()
      .int()
      .min(1)
      .max(64)
      .default(4)
      .describe("Slices exported at the same time. Default 4."),
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
  })
  .describe("Concurrency, quota and retry limits.");

export type Limits = z.output<typeof limitsSchema>;
