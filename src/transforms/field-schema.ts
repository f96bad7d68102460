// The zod schema of a field reference in transform configs: a dotted path such as `job.id`.
import { z } from "zod";

export const fieldPathSchema = z
  .string()
  .min(1)
  .refine((path) => !path.startsWith(".") && !path.endsWith(".") && !path.includes(".."), {
    message: "a field path has no empty segment (no leading, trailing or doubled dot)",
  })
  .describe("A field name; a dotted path (job.id) reaches into nested records as well as flattened ones.");

export const fieldListSchema = z
  .array(fieldPathSchema)
  .min(1)
  .refine((fields) => new Set(fields).size === fields.length, { message: "lists a field more than once" });
