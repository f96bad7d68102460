// The shape jobs and tickets share: v3 kinds of application atr paged with a point in time, with
// aggregations, and mappings that take no application or app type.
import { pointInTime } from "../api/paging/point-in-time.js";
import { ATR_ONLY } from "../api/wire/common.js";
import type { DataKindComponent } from "./data-kind.js";
import { byName } from "./hit-columns.js";
import { v3Kind } from "./v3-kind.js";

const PATHS = {
  jobs: { query: "/v3/jobs/query", aggs: "/v3/jobs/aggs", mappings: "/v3/jobs/mappings" },
  tickets: { query: "/v3/tickets/query", aggs: "/v3/tickets/aggs", mappings: "/v3/tickets/mappings" },
} as const;

export function pointInTimeKind(type: keyof typeof PATHS, summary: string): DataKindComponent {
  const paths = PATHS[type];
  return v3Kind({
    type,
    summary,
    applications: ATR_ONLY,
    paging: "pit",
    strategy: (body) => pointInTime(paths.query, body),
    aggs: async (client, body, signal) => (await client.call(paths.aggs, body, { signal })).data.aggregations,
    mappings: async (client, source, signal) =>
      byName(
        (await client.call(paths.mappings, { includes_eu: source.includes_eu }, { signal })).data.fields,
      ),
  });
}
