// The `source` schema: which kind of data, from where (application, app_type, scope), over which
// window, how it is retrieved, and which records and fields; normalised for the sources that run it.
import { z } from "zod";
import type { DataKind } from "../api/wire/fields.js";
import { APP_TYPES, APPLICATIONS, appTypeList, STRATEGIES } from "../kinds/source-spec.js";
import type { SourceSection, SourceSpec } from "../kinds/source-spec.js";
import type { KindTable } from "../components/registry.js";
import { queryFilterSchema } from "./query-filter-schema.js";
import type { QueryFilter } from "./query-filter-schema.js";
import { checkSource } from "./source-rules.js";
import { createWindowSchema } from "./window-schema.js";
import type { Window } from "./window-schema.js";
import { wholeNumber } from "../core/whole-number.js";

/** Records per request when page_size is not given. */
const DEFAULT_PAGE_SIZE = 1000;

const scopeList = (what: string) =>
  z
    .array(z.string().min(1))
    .min(1)
    .describe(`${what}: a list of names, or ["*"] for all (the wildcard stands alone).`);

const appTypeSchema = z.enum(APP_TYPES);

/** The source as the exporter runs it: the `source` section, validated and normalised. */
export type SourceConfig = SourceSpec & { window: Window; filters: QueryFilter[] };

/** The `source` schema with windows resolved against `now`, for the environment's data kinds. */
export function createSourceSchema(now: Date, kinds: KindTable) {
  const kindNames = Object.keys(kinds) as [DataKind, ...DataKind[]];
  // The section as written, before normalisation, is the shape the kinds' rules check.
  const written = z.strictObject({
    kind: z
      .enum(kindNames)
      .describe(
        `The data exported. Required. ${kindNames.map((kind) => `${kind}: ${kinds[kind].summary}`).join(" ")}`,
      ),
    application: z
      .enum(APPLICATIONS)
      .optional()
      .describe(
        `${kindNames.map((kind) => `${kind}: ${kinds[kind].applications.join(", ") || "none"}`).join("; ")}. Required except for billing.`,
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
    page_size: wholeNumber(1)
      .optional()
      .describe(`Records per request for scroll and pit (v3: at most 10000). Default ${DEFAULT_PAGE_SIZE}.`),
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
  }) satisfies z.ZodType<SourceSection>;
  return written
    .superRefine((source, ctx) => checkSource(source, ctx, kinds))
    .transform((source): SourceConfig => ({
      ...source,
      api: kinds[source.kind].apiVersion(source.api),
      app_type: appTypeList(source.app_type),
      page_size: source.page_size ?? DEFAULT_PAGE_SIZE,
      filters: source.filters ?? [],
      includes_eu: source.includes_eu ?? true,
    }))
    .describe("What is exported and how it is retrieved.");
}
