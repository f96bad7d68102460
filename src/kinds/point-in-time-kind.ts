// The shape jobs and tickets share: v3 kinds of application atr paged with a point in time, with
// aggregations, and mappings that take no application or app type.
import { V3_HITS } from "../api/paging/hit-array.js";
import { pointInTimePaging } from "../api/paging/point-in-time.js";
import { ATR_ONLY, DOMAIN_APP_TYPES } from "../api/wire/common.js";
import { KIND_FIELDS } from "../api/wire/fields.js";
import { createPagedSource } from "../sources/paged.js";
import type { DataKindComponent } from "./data-kind.js";
import { byName, hitColumns } from "./hit-columns.js";
import { v3AggsBody, v3QueryBody } from "./v3-requests.js";

const PATHS = {
  jobs: { query: "/v3/jobs/query", aggs: "/v3/jobs/aggs", mappings: "/v3/jobs/mappings" },
  tickets: { query: "/v3/tickets/query", aggs: "/v3/tickets/aggs", mappings: "/v3/tickets/mappings" },
} as const;

export function pointInTimeKind(type: keyof typeof PATHS, summary: string): DataKindComponent {
  const paths = PATHS[type];
  return {
    type,
    summary,
    apiVersion: () => "v3",
    applications: ATR_ONLY,
    appTypes: () => DOMAIN_APP_TYPES,
    strategies: () => ["auto", "pit", "aggs"],
    pagingLimit: 200_000,
    fields: KIND_FIELDS[type],
    paging: "pit",
    sources: () => ({
      pit: (source, { client }) =>
        createPagedSource(function* (ctx) {
          const body = v3QueryBody(paths.query, ATR_ONLY, source, ctx.slice);
          yield pointInTimePaging(client, paths.query, body, V3_HITS, { signal: ctx.signal });
        }),
    }),
    aggregation: {
      sets: () => [undefined],
      send: async (client, source, request) => {
        const body = v3AggsBody(paths.aggs, ATR_ONLY, source, request);
        return (await client.call(paths.aggs, body, { signal: request.signal })).data.aggregations;
      },
    },
    mappings: async (client, source, signal) =>
      byName(
        (await client.call(paths.mappings, { includes_eu: source.includes_eu }, { signal })).data.fields,
      ),
    columns: hitColumns,
  };
}
