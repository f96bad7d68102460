// Logs: application logs, served by v2 (scroll, batch export, aggs; one request set per app_type) or
// the deprecated v1 (scroll, batch; date-math windows), with v3 mappings per application and app type.
// Quirks: v1 calls containers caas, the mappings know them as kubernetes; eventops logs are always
// serverless, scoped by log_group, tenant and stage instead of domain.
import { v2HitArray } from "../api/paging/hit-array.js";
import { v2ScrollPaging } from "../api/paging/v2-scroll.js";
import { LOG_APPLICATIONS, LOG_MAPPING_APPLICATIONS, V2_LOG_APP_TYPES } from "../api/wire/common.js";
import { KIND_FIELDS } from "../api/wire/fields.js";
import { createBatchSource } from "../sources/batch.js";
import { createPagedSource } from "../sources/paged.js";
import type { DataKindComponent, KindSources, MappingsSource } from "./data-kind.js";
import { hitColumns } from "./hit-columns.js";
import { checkLogsSource, logsScope } from "./logs-source-rules.js";
import { v1LogsSources } from "./logs-v1.js";
import { mappingsPerAppType } from "./mappings-per-app-type.js";
import { oneOf } from "./source-spec.js";
import { v2Aggs, v2BatchBody, v2Base, v2ScrollBody } from "./v2-requests.js";

const ALLOWED = { applications: LOG_APPLICATIONS, appTypes: V2_LOG_APP_TYPES };

/**
 * The app types whose mappings cover what the source can return: eventops is serverless only, caas
 * is kubernetes, and a v1 source without app_type returns both of v1's (ec2 and caas).
 */
export function logsMappingAppTypes(source: MappingsSource): string[] {
  if (source.application === "eventops" || source.application === "agentmanager") return ["serverless"];
  const appTypes = source.app_type.length > 0 ? source.app_type : ["ec2", "caas"];
  return appTypes.map((appType) => (appType === "caas" ? "kubernetes" : appType));
}

const v2Sources: KindSources = {
  scroll: (source, { client }) =>
    createPagedSource(function* (ctx) {
      const operation = "/v2/logs/scroll";
      for (const appType of source.app_type) {
        const body = v2ScrollBody(operation, ALLOWED, source, appType, ctx.slice);
        yield v2ScrollPaging(client, { kind: "logs", body }, v2HitArray("logs"), { signal: ctx.signal });
      }
    }),
  batch: (source, { client, batch }) =>
    createBatchSource(
      {
        pageSize: source.page_size,
        queries: (slice) =>
          source.app_type.map((appType) => {
            const operation = "/v2/logs/batch";
            const body = v2BatchBody(operation, ALLOWED, source, appType, slice);
            return { kind: "v2-logs", body };
          }),
      },
      client,
      batch,
    ),
};

export const logsKind: DataKindComponent = {
  type: "logs",
  summary: "Application logs (v2 scroll, batch, aggs; deprecated v1 scroll, batch).",
  apiVersion: (requested) => requested ?? "v2",
  applications: LOG_APPLICATIONS,
  appTypes: (api) => (api === "v1" ? ["ec2", "caas"] : V2_LOG_APP_TYPES),
  strategies: (api) => (api === "v1" ? ["auto", "scroll", "batch"] : ["auto", "scroll", "batch", "aggs"]),
  pagingLimit: 100_000,
  fields: KIND_FIELDS.logs,
  paging: "scroll",
  sources: (api) => (api === "v1" ? v1LogsSources : v2Sources),
  aggregation: {
    sets: (source) => source.app_type,
    send: async (client, source, request) => {
      const operation = "/v2/logs/aggs";
      const { aggs, unwrap } = v2Aggs(operation, source, request);
      const body = { ...v2Base(operation, ALLOWED, source, request.appType, request.bounds), aggs };
      return unwrap((await client.call(operation, body, { signal: request.signal })).data.aggregations);
    },
  },
  mappings: (client, source, signal) =>
    mappingsPerAppType(logsMappingAppTypes(source), async (appType) => {
      const operation = "/v3/logs/mappings";
      const body = {
        application: oneOf(operation, "application", LOG_MAPPING_APPLICATIONS, source.application),
        app_type: oneOf(operation, "app_type", V2_LOG_APP_TYPES, appType),
        includes_eu: source.includes_eu,
      };
      return (await client.call(operation, body, { signal })).data.fields;
    }),
  columns: hitColumns,
  scope: logsScope,
  checkSource: checkLogsSource,
};
