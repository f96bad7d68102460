// The `source` schema: which kind of data, from where (application, app_type, scope), over which
// window, how it is retrieved, and which records and fields; normalised for the sources that run it.
import { z } from "zod";
import { DATA_KINDS } from "../api/wire/fields.js";
import type { DataKind } from "../api/wire/fields.js";
import { APP_TYPES, APPLICATIONS, apiVersionOf, STRATEGIES } from "./kind-rules.js";
import type { ApiVersion, AppType, Application, Strategy } from "./kind-rules.js";
import { queryFilterSchema } from "./query-filter-schema.js";
import type { QueryFilter } from "./query-filter-schema.js";
import { checkSource } from "./source-rules.js";
import { createWindowSchema } from "./window-schema.js";
import type { Window } from "./window-schema.js";

/** Records per request when page_size is not given. */
export const DEFAULT_PAGE_SIZE = 1000;

const scopeList = (what: string) =>
  z
    .array(z.string().min(1))
    .min(1)
    .describe(`${what}: a list of names, or ["*"] for all (the wildcard stands alone).`);

const appTypeSchema = z.enum(APP_TYPES);

/** The source as the exporter runs it; `app_type` is always a list (one request set per entry for v2). */
export interface SourceConfig {
  kind: DataKind;
  api: ApiVersion;
  application?: Application | undefined;
  app_type: AppType[];
  domain?: string[] | undefined;
  log_group?: string[] | undefined;
  tenant?: string[] | undefined;
  stage?: string[] | undefined;
  window: Window;
  strategy: Strategy;
  page_size: number;
  filters: QueryFilter[];
  fields?: string[] | undefined;
  aggs?: Record<string, Record<string, unknown>> | undefined;
  includes_eu: boolean;
}

export function createSourceSchema(now: Date) {
  return z
    .strictObject({
      kind: z
        .enum(DATA_KINDS)
        .describe("The data exported: logs, workloads, jobs, tickets, metrics or billing. Required."),
      application: z
        .enum(APPLICATIONS)
        .optional()
        .describe(
          "logs: atr, klewer, eventops, quasar; workloads, jobs, tickets: atr; metrics: atr, klewer, quasar; billing: none. Required except for billing.",
        ),
      app_type: z
        .union([appTypeSchema, z.array(appTypeSchema).min(1)])
        .optional()
        .describe(
          "ec2, kubernetes (v1 logs: ec2, caas; v2 logs also serverless); a list exports each in turn. Required except for billing and v1 logs.",
        ),
      api: z.enum(["v1", "v2"]).optional().describe("Logs only: v2 (default) or the deprecated v1."),
      domain: scopeList("Domains queried; required except for serverless logs").optional(),
      log_group: scopeList("Serverless logs: log groups; required with app_type serverless").optional(),
      tenant: scopeList("Serverless logs: tenants; required with app_type serverless").optional(),
      stage: scopeList("Serverless logs: stages; required with app_type serverless").optional(),
      window: createWindowSchema(now),
      strategy: z
        .enum(STRATEGIES)
        .default("auto")
        .describe(
          "auto (planner decides per slice), scroll, pit (point in time), batch or aggs; only what the kind offers. Default auto.",
        ),
      page_size: z
        .number()
        .int()
        .min(1)
        .optional()
        .describe(
          `Records per request for scroll and pit (v3: at most 10000). Default ${DEFAULT_PAGE_SIZE}.`,
        ),
      filters: z
        .array(queryFilterSchema)
        .optional()
        .describe("Query-DSL filters, all of which must match. Default none."),
      fields: z
        .array(z.string().min(1))
        .min(1)
        .optional()
        .describe("Fields returned (besides _id and _index); all fields when omitted."),
      aggs: z
        .record(z.string().min(1), z.record(z.string(), z.unknown()))
        .optional()
        .describe("Aggregation definition; required with strategy aggs, one row per bucket path."),
      includes_eu: z
        .boolean()
        .optional()
        .describe("jobs, tickets, metrics: also query the EU region. Default true; false is faster."),
    })
    .superRefine(checkSource)
    .transform((source): SourceConfig => ({
      ...source,
      api: apiVersionOf(source.kind, source.api),
      app_type:
        source.app_type === undefined
          ? []
          : typeof source.app_type === "string"
            ? [source.app_type]
            : source.app_type,
      page_size: source.page_size ?? DEFAULT_PAGE_SIZE,
      filters: source.filters ?? [],
      includes_eu: source.includes_eu ?? true,
    }))
    .describe("What is exported and how it is retrieved.");
}
