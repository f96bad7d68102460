// Logs: application logs, served by v2 (scroll, batch export, aggs; one request set per app_type) or
// the deprecated v1 (scroll, batch; date-math windows), with v3 mappings per application and app type.
// Quirks: v1 calls containers caas, the mappings know them as kubernetes; eventops logs are always
// serverless, scoped by log_group, tenant and stage instead of domain.
import { v2BatchExport } from "../api/paging/batch-exports.js";
import { v2Scroll } from "../api/paging/scroll.js";
import type { RequestOf } from "../api/service-operation.js";
import { LOG_APPLICATIONS, LOG_MAPPING_APPLICATIONS, V2_LOG_APP_TYPES } from "../api/wire/common.js";
import type { MappingsSource } from "./data-kind.js";
import { checkLogsSource, logsScope } from "./logs-source-rules.js";
import { v1LogsSources } from "./logs-v1.js";
import { mappingsPerAppType } from "./mappings-per-app-type.js";
import { oneOf } from "./source-spec.js";
import { v2ScrollKind } from "./v2-scroll-kind.js";

/**
 * The app types whose mappings cover what the source can return: eventops is serverless only, caas
 * is kubernetes, and a v1 source without app_type returns both of v1's (ec2 and caas).
 */
function logsMappingAppTypes(source: MappingsSource): string[] {
  if (source.application === "eventops" || source.application === "agentmanager") return ["serverless"];
  const appTypes = source.app_type.length > 0 ? source.app_type : ["ec2", "caas"];
  return appTypes.map((appType) => (appType === "caas" ? "kubernetes" : appType));
}

/** The logs scroll: its answers report the query's total as `data.count`. */
export const logsScroll = (body: RequestOf<"/v2/logs/scroll">) =>
  v2Scroll("/v2/logs/scroll", body, (response) => response.data.count);

export const logsKind = v2ScrollKind({
  type: "logs",
  summary: "Application logs (v2 scroll, batch, aggs; deprecated v1 scroll, batch).",
  allowed: { applications: LOG_APPLICATIONS, appTypes: V2_LOG_APP_TYPES },
  scroll: (body) => logsScroll(body),
  batch: (body) => v2BatchExport("/v2/logs/batch", body, "log_count"),
  aggs: async (client, body, signal) =>
    (await client.call("/v2/logs/aggs", body, { signal })).data.aggregations,
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
  // `@timestamp` (when the service indexed the log) takes `timestamp`; the application's own field
  // of that name keeps its meaning in its column's name.
  snakeCaseNames: { timestamp: "app_timestamp" },
  v1: { appTypes: ["ec2", "caas"], strategies: ["auto", "scroll", "batch"], sources: v1LogsSources },
  scope: logsScope,
  checkSource: checkLogsSource,
});
