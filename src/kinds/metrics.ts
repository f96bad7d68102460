// Metrics: host and container metrics, served by v3 with scroll paging and aggregations. Its mappings
// differ per application and app type, so they are asked once per app type and joined.
import { metricsScroll } from "../api/paging/scroll.js";
import { DOMAIN_APP_TYPES, METRIC_APPLICATIONS } from "../api/wire/common.js";
import { mappingsPerAppType } from "./mappings-per-app-type.js";
import { oneOf } from "./source-spec.js";
import { v3Kind } from "./v3-kind.js";

export const metricsKind = v3Kind({
  type: "metrics",
  summary: "Host and container metrics (v3; scroll, aggs).",
  applications: METRIC_APPLICATIONS,
  paging: "scroll",
  strategy: metricsScroll,
  aggs: async (client, body, signal) =>
    (await client.call("/v3/metrics/aggs", body, { signal })).data.aggregations,
  mappings: (client, source, signal) =>
    mappingsPerAppType(source.app_type, async (appType) => {
      const operation = "/v3/metrics/mappings";
      const body = {
        application: oneOf(operation, "application", METRIC_APPLICATIONS, source.application),
        app_type: oneOf(operation, "app_type", DOMAIN_APP_TYPES, appType),
        includes_eu: source.includes_eu,
      };
      return (await client.call(operation, body, { signal })).data.fields;
    }),
});
