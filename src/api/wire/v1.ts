// Request and response schemas of the v1 family (logs scroll and batch, deprecated; billing query).
import { z } from "zod";
import {
  enumSchema,
  LOG_APPLICATIONS,
  positiveIntSchema,
  requireFields,
  timeRangeSchema,
  V1_APP_TYPES,
  v1FiltersSchema,
} from "./common.js";
import { defineRequest } from "./request-spec.js";
import { hitSchema } from "./hits.js";

const v1LogsFields = {
  application: enumSchema(LOG_APPLICATIONS).optional(),
  time_range: timeRangeSchema.optional(),
  app_type: enumSchema(V1_APP_TYPES).optional(),
  domain: z.string({ error: "must be a string" }).optional(),
  size: positiveIntSchema.optional(),
  filters: v1FiltersSchema.optional(),
  log_group: z.string({ error: "must be a string" }).optional(),
  tenant: z.string({ error: "must be a string" }).optional(),
  stage: z.string({ error: "must be a string" }).optional(),
};

export const v1LogsBatchRequest = defineRequest(z.object(v1LogsFields), (body, problems) =>
  requireFields(body, ["application", "time_range"], problems),
);

export const v1LogsScrollRequest = defineRequest(
  z.object({ ...v1LogsFields, scroll_id: z.string({ error: "must be a string" }).optional() }),
  (body, problems) => requireFields(body, ["application", "time_range"], problems),
);

export const v1QueryRequest = defineRequest(
  z.object({
    domain: z.string({ error: "must be a string" }).optional(),
    time_range: timeRangeSchema.optional(),
  }),
  (body, problems) => requireFields(body, ["domain", "time_range"], problems),
);

const remaining = z.number().int();

export const v1LogsScrollResponse = z.looseObject({
  logs: z.array(hitSchema),
  scroll_id: z.string().nullable(),
  has_more: z.boolean(),
  daily_requests_remaining: remaining,
});

export const v1LogsBatchResponse = z.looseObject({
  logs: z.array(z.record(z.string(), z.unknown())),
  token: z.string(),
  daily_requests_remaining: remaining,
});

const v1BatchLinkSchema = z.looseObject({
  presigned_url: z.string(),
  time_range: z.string(),
  ready: z.boolean(),
  status: z.string(),
});

export const v1BatchUrlsResponse = z.looseObject({
  presigned_urls: z.array(v1BatchLinkSchema),
  daily_requests_remaining: remaining.optional(),
});

const billingSummarySchema = z.looseObject({
  ticket_count: z.number().int(),
  domain: z.string(),
  time_range: z.string(),
  client: z.string(),
  live_status: z.string(),
  WBS: z.string(),
  created: z.string(),
  infra_type: z.string(),
  billing_type: z.string(),
  point_of_contact: z.string(),
});

export const v1QueryResponse = z.looseObject({
  summary: billingSummarySchema,
  daily_requests_remaining: remaining,
});
