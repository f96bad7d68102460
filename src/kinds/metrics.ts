// Metrics: host and container metrics, served by v3 with scroll paging and aggregations. Its mappings
// differ per application and app type, so they are asked once per app type and joined.
import { V3_HITS } from "../api/paging/hit-array.js";
import { metricsScrollPaging } from "../api/paging/metrics-scroll.js";
import { DOMAIN_APP_TYPES, METRIC_APPLICATIONS } from "../api/wire/common.js";
import { KIND_FIELDS } from "../api/wire/fields.js";
import { createPagedSource } from "../sources/paged.js";
import type { DataKindComponent } from "./data-kind.js";
import { hitColumns } from "./hit-columns.js";
import { mappingsPerAppType } from "./mappings-per-app-type.js";
import { oneOf } from "./source-spec.js";
import { v3AggsBody, v3QueryBody } from "./v3-requests.js";

export const metricsKind: DataKindComponent = {
  type: "metrics",
  summary: "Host and container metrics (v3; scroll, aggs).",
  apiVersion: () => "v3",
  applications: METRIC_APPLICATIONS,
  appTypes: () => DOMAIN_APP_TYPES,
  strategies: () => ["auto", "scroll", "aggs"],
  pagingLimit: 200_000,
  fields: KIND_FIELDS.metrics,
  paging: "scroll",
  sources: () => ({
    scroll: (source, { client }) =>
      createPagedSource(function* (ctx) {
        const body = v3QueryBody("/v3/metrics/query", METRIC_APPLICATIONS, source, ctx.slice);
        yield metricsScrollPaging(client, body, V3_HITS, { signal: ctx.signal });
      }),
  }),
  aggregation: {
    sets: () => [undefined],
    send: async (client, source, request) => {
      const body = v3AggsBody("/v3/metrics/aggs", METRIC_APPLICATIONS, source, request);
      return (await client.call("/v3/metrics/aggs", body, { signal: request.signal })).data.aggregations;
    },
  },
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
  columns: hitColumns,
};
