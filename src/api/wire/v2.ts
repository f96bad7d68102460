// Request and response schemas of the v2 family: logs and workloads scroll, batch, batch status, aggs.
import { z } from "zod";
import {
  aggsSchema,
  ATR_ONLY,
  checkScopeList,
  checkTimeOrder,
  DOMAIN_APP_TYPES,
  enumSchema,
  fieldsSchema,
  filtersSchema,
  forbidFields,
  isPresentString,
  LOG_APPLICATIONS,
  positiveIntSchema,
  requireFields,
  scopeListSchema,
  timestampSchema,
  tokenSchema,
  V2_LOG_APP_TYPES,
} from "./common.js";
import type { Body, WireProblem } from "./common.js";
import { defineRequest } from "./request-spec.js";
import { hitSchema, logsPartitionSchema, workloadsPartitionSchema } from "./hits.js";

const SERVERLESS_SCOPE = ["log_group", "tenant", "stage"] as const;

const logsFields = {
  application: enumSchema(LOG_APPLICATIONS).optional(),
  start_time: timestampSchema.optional(),
  end_time: timestampSchema.optional(),
  app_type: enumSchema(V2_LOG_APP_TYPES).optional(),
  domain: scopeListSchema.optional(),
  log_group: scopeListSchema.optional(),
  tenant: scopeListSchema.optional(),
  stage: scopeListSchema.optional(),
  filters: filtersSchema.optional(),
  fields: fieldsSchema.optional(),
};

/** Initial logs request: required fields, then serverless vs domain scope by app_type. */
function logsInitialRules(body: Body, problems: WireProblem[], extra: readonly string[]): void {
  requireFields(body, ["application", "start_time", "end_time", "app_type", ...extra], problems);
  checkTimeOrder(body, problems);
  const appType = body["app_type"];
  const application = body["application"];
  const serverless = appType === "serverless";
  if (!serverless && appType !== "ec2" && appType !== "kubernetes") return;
  // eventops is the serverless application, and the only one.
  if (application !== undefined && serverless !== (application === "eventops")) {
    const message = serverless
      ? "must be eventops when app_type is serverless"
      : "must not be eventops unless app_type is serverless";
    problems.push({ field: "application", value: application, message });
  }
  const scope = serverless ? SERVERLESS_SCOPE : ["domain"];
  requireFields(body, scope, problems);
  for (const name of scope) checkScopeList(body, name, problems);
}

/**
 * A v2 kind's scroll, batch and aggs requests from its fields and the rules of its initial request
 * (`extra`: the fields it requires besides the kind's own). A scroll request that carries
 * `scroll_id` is a continuation, with no other rule.
 */
function v2Requests<const F extends z.ZodRawShape & { filters: z.ZodType; fields: z.ZodType }>(
  fields: F,
  initialRules: (body: Body, problems: WireProblem[], extra: readonly string[]) => void,
  scrollRequires: readonly string[],
) {
  const { filters: _filters, fields: _fields, ...aggsFields } = fields;
  return {
    scroll: defineRequest(
      z.object({
        ...fields,
        size: positiveIntSchema.optional(),
        scroll_id: z.string({ error: "must be a string" }).optional(),
      }),
      (body, problems) => {
        if (isPresentString(body["scroll_id"])) return;
        initialRules(body, problems, scrollRequires);
      },
    ),
    batch: defineRequest(z.object(fields), (body, problems) => {
      forbidFields(body, ["size", "scroll_id"], problems);
      initialRules(body, problems, []);
    }),
    aggs: defineRequest(z.object({ ...aggsFields, aggs: aggsSchema.optional() }), (body, problems) => {
      forbidFields(body, NOT_ON_V2_AGGS, problems);
      initialRules(body, problems, ["aggs"]);
    }),
  };
}

/**
 * The spec shows no `filters` (nor `fields`) on the v2 aggs operations, so they are refused here: a
 * filtered aggregation is a `filter` aggregation wrapping the others, the spec's own route.
 */
const NOT_ON_V2_AGGS = ["filters", "fields"] as const;

export const v2LogsRequests = v2Requests(logsFields, logsInitialRules, ["size"]);

const workloadsFields = {
  application: enumSchema(ATR_ONLY).optional(),
  start_time: timestampSchema.optional(),
  end_time: timestampSchema.optional(),
  app_type: enumSchema(DOMAIN_APP_TYPES).optional(),
  domain: scopeListSchema.optional(),
  filters: filtersSchema.optional(),
  fields: fieldsSchema.optional(),
};

function workloadsInitialRules(body: Body, problems: WireProblem[], extra: readonly string[]): void {
  requireFields(body, ["application", "start_time", "end_time", "app_type", "domain", ...extra], problems);
  checkScopeList(body, "domain", problems);
  checkTimeOrder(body, problems);
}

export const v2WorkloadsRequests = v2Requests(workloadsFields, workloadsInitialRules, []);

/** Batch status (v2) and batch links (v1): `token` required, trimmed, not empty. */
export const batchTokenRequest = defineRequest(
  z.object({ token: tokenSchema.optional() }),
  (body, problems) => {
    if (!isPresentString(body["token"])) {
      problems.push({
        field: "token",
        value: body["token"],
        message: "is required (a non-empty batch token)",
      });
    }
  },
);

/** The meta every v2 response carries. */
const v2MetaSchema = z.looseObject({
  api_version: z.literal("v2"),
  time_range: z.looseObject({ start: z.string().nullable(), end: z.string().nullable() }),
  rate_limit: z.looseObject({ daily_remaining: z.number().int() }),
  request_id: z.string(),
});

export const v2LogsScrollResponse = z.looseObject({
  data: z.looseObject({ logs: z.array(hitSchema), count: z.number().int() }),
  meta: v2MetaSchema.extend({ scroll_id: z.string().optional() }),
});

export const v2WorkloadsScrollResponse = z.looseObject({
  data: z.looseObject({ workloads: z.array(hitSchema), count: z.number().int() }),
  meta: v2MetaSchema.extend({
    scroll_id: z.string().optional(),
    workloads_available: z.number().int().optional(),
  }),
});

export const v2BatchResponse = z.looseObject({
  data: z.looseObject({ token: z.string() }),
  meta: v2MetaSchema,
});

/** Status responses: `presigned_urls` at the top level (as the spec shows) or under `data`. */
function statusResponse<T extends z.ZodType>(partition: T) {
  return z.union([
    z.looseObject({ presigned_urls: z.array(partition) }),
    z.looseObject({ data: z.looseObject({ presigned_urls: z.array(partition) }) }),
  ]);
}
export const v2LogsBatchStatusResponse = statusResponse(logsPartitionSchema);
export const v2WorkloadsBatchStatusResponse = statusResponse(workloadsPartitionSchema);

export const v2AggsResponse = z.looseObject({
  data: z.looseObject({ aggregations: z.record(z.string(), z.unknown()), total_documents: z.number().int() }),
  meta: v2MetaSchema,
});
