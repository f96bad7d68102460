// Document hits and batch partition records as the service returns them.
import { z } from "zod";
import { isJsonObject } from "../../core/json-object.js";

/**
 * A document's `_source`: any JSON object. Checked, not rebuilt: `z.record` would copy every key of
 * every record (a third of the time spent parsing a page); a parsed JSON object's keys are strings anyway.
 */
const sourceSchema = z.custom<Record<string, unknown>>(isJsonObject, { message: "expected a JSON object" });

/** A v2 scroll hit (logs, workloads), also used for v1 logs. */
export const hitSchema = z.looseObject({
  _index: z.string(),
  _id: z.string(),
  _score: z.number().nullable().optional(),
  _source: sourceSchema,
});

/** A v3 query hit (jobs, tickets, metrics): carries its sort values. */
export const v3HitSchema = z.looseObject({
  _index: z.string(),
  _id: z.string(),
  _score: z.number().nullable(),
  _source: sourceSchema,
  sort: z.array(z.union([z.string(), z.number(), z.null()])),
});

export type Hit = z.infer<typeof hitSchema>;
export type V3Hit = z.infer<typeof v3HitSchema>;

/** A v2 batch partition; each kind's status adds its count (`log_count`, `workload_count`). */
export const partitionSchema = z.looseObject({
  start_time: z.string(),
  end_time: z.string(),
  /** A download link, or the literal text `null` while not ready. */
  presigned_url: z.string().nullable(),
  completed: z.boolean(),
  status: z.string(),
});

export const logsPartitionSchema = partitionSchema.extend({ log_count: z.number().int() });
export const workloadsPartitionSchema = partitionSchema.extend({ workload_count: z.number().int() });
