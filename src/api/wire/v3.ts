// Request and response schemas of the v3 family: mappings, jobs/tickets point-in-time query, metrics
// scroll query, aggs. v3 bodies are strict: an unknown field is a 400.
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
  isPresentString,
  LOG_MAPPING_APPLICATIONS,
  METRIC_APPLICATIONS,
  requireFields,
  scopeListSchema,
  timestampSchema,
  v3AppTypeSchema,
  v3SizeSchema,
  V2_LOG_APP_TYPES,
} from "./common.js";
import type { Body, WireProblem } from "./common.js";
import { defineRequest } from "./request-spec.js";
import { v3HitSchema } from "./hits.js";

const includesEu = z.boolean({ error: "must be a boolean" }).optional();

export const v3LogsMappingsRequest = defineRequest(
  z.strictObject({
    application: enumSchema(LOG_MAPPING_APPLICATIONS).optional(),
    app_type: enumSchema(V2_LOG_APP_TYPES).optional(),
    includes_eu: includesEu,
  }),
  (body, problems) => {
    requireFields(body, ["application", "app_type"], problems);
    const { application, app_type: appType } = body;
    const serverlessOnly = application === "eventops" || application === "agentmanager";
    if (typeof application !== "string" || typeof appType !== "string") return;
    if (serverlessOnly !== (appType === "serverless")) {
      const allowed = serverlessOnly ? "serverless" : "ec2 or kubernetes";
      problems.push({
        field: "app_type",
        value: appType,
        message: `must be ${allowed} for application ${application}`,
      });
    }
  },
);

/** Workloads, jobs and tickets mappings: `includes_eu` only; an empty body is valid. */
export const v3PlainMappingsRequest = defineRequest(z.strictObject({ includes_eu: includesEu }), () => {});

export const v3MetricsMappingsRequest = defineRequest(
  z.strictObject({
    application: enumSchema(METRIC_APPLICATIONS).optional(),
    app_type: enumSchema(DOMAIN_APP_TYPES).optional(),
    includes_eu: includesEu,
  }),
  (body, problems) => requireFields(body, ["application", "app_type"], problems),
);

const INITIAL_REQUIRED = ["application", "start_time", "end_time", "app_type", "domain"];

function queryScopeRules(body: Body, problems: WireProblem[], required: readonly string[]): void {
  requireFields(body, required, problems);
  checkScopeList(body, "domain", problems);
  if (Array.isArray(body["app_type"]) && body["app_type"].length === 0) {
    problems.push({
      field: "app_type",
      value: body["app_type"],
      message: "must not be empty: ec2, kubernetes",
    });
  }
  checkTimeOrder(body, problems);
}

function queryFields(applications: readonly [string, ...string[]]) {
  return {
    application: enumSchema(applications).optional(),
    start_time: timestampSchema.optional(),
    end_time: timestampSchema.optional(),
    app_type: v3AppTypeSchema.optional(),
    domain: scopeListSchema.optional(),
    size: v3SizeSchema.optional(),
    filters: filtersSchema.optional(),
    fields: fieldsSchema.optional(),
    includes_eu: includesEu,
  };
}

const searchAfterSchema = z.array(z.union([z.string(), z.number(), z.null()]), {
  error: "must be an array of sort values",
});

/** Jobs and tickets: point-in-time paging; `pit_id` and `search_after` both or neither. */
export const v3PitQueryRequest = defineRequest(
  z.strictObject({
    ...queryFields(ATR_ONLY),
    pit_id: z.string({ error: "must be a string" }).optional(),
    search_after: searchAfterSchema.optional(),
  }),
  (body, problems) => {
    const hasPit = body["pit_id"] !== undefined && body["pit_id"] !== null;
    const hasAfter = body["search_after"] !== undefined && body["search_after"] !== null;
    if (hasPit !== hasAfter) {
      const missing = hasPit ? "search_after" : "pit_id";
      problems.push({
        field: missing,
        value: undefined,
        message: "is required: pit_id and search_after go together (both or neither)",
      });
    }
    if (hasPit && hasAfter) return;
    queryScopeRules(body, problems, INITIAL_REQUIRED);
  },
);

export const v3MetricsQueryRequest = defineRequest(
  z.strictObject({
    ...queryFields(METRIC_APPLICATIONS),
    scroll_id: z.string({ error: "must be a string" }).optional(),
  }),
  (body, problems) => {
    if (isPresentString(body["scroll_id"])) return;
    queryScopeRules(body, problems, INITIAL_REQUIRED);
  },
);

function aggsRequest(applications: readonly [string, ...string[]]) {
  const { size: _size, fields: _fields, ...fields } = queryFields(applications);
  return defineRequest(z.strictObject({ ...fields, aggs: aggsSchema.optional() }), (body, problems) =>
    queryScopeRules(body, problems, [...INITIAL_REQUIRED, "aggs"]),
  );
}
export const v3PitAggsRequest = aggsRequest(ATR_ONLY);
export const v3MetricsAggsRequest = aggsRequest(METRIC_APPLICATIONS);

const v3MetaSchema = z.looseObject({
  trace_id: z.string(),
  rate_limit: z.looseObject({ daily_remaining: z.number().int() }),
});

const mappingFieldSchema = z.looseObject({ name: z.string(), type: z.string() });

export const v3MappingsResponse = z.looseObject({
  data: z.looseObject({ fields: z.array(mappingFieldSchema), field_count: z.number().int() }),
  meta: v3MetaSchema,
});

const queryData = z.looseObject({
  hits: z.array(v3HitSchema),
  total: z.number().int(),
  count: z.number().int(),
});

export const v3PitQueryResponse = z.looseObject({
  data: queryData,
  meta: v3MetaSchema.extend({
    pagination: z.looseObject({
      pit_id: z.string().nullable(),
      search_after: z.array(z.unknown()).nullable(),
    }),
  }),
});

export const v3ScrollQueryResponse = z.looseObject({
  data: queryData,
  meta: v3MetaSchema.extend({ pagination: z.looseObject({ scroll_id: z.string().nullable() }) }),
});

export const v3AggsResponse = z.looseObject({
  data: z.looseObject({ aggregations: z.record(z.string(), z.unknown()), total: z.number().int() }),
  meta: v3MetaSchema.extend({ pagination: z.looseObject({ pit_id: z.null(), search_after: z.null() }) }),
});
