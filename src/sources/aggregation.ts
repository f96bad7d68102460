// The aggregation source: one aggs request per slice (v2 logs/workloads, v3 jobs/tickets/metrics),
// its response turned into one row per bucket path with the slice's bounds beside it.
import type { ServiceClient } from "../api/client.js";
import type { RequestOf } from "../api/service-call.js";
import type { Batch, Column, Source } from "../pipeline/contracts.js";
import { aggregationColumns, aggregationRows } from "./aggregation-rows.js";
import { scopeOf, timeBounds } from "./source-query.js";
import type { SourceQuery } from "./source-query.js";

/** Columns every aggregation row starts with, so rows of different slices stay apart. */
export const AGGREGATION_BASE_COLUMNS: readonly Column[] = [
  { name: "slice_start", type: "timestamp" },
  { name: "slice_end", type: "timestamp" },
];

/** v2 kinds aggregate each app_type in its own request; this column keeps their rows apart. */
const APP_TYPE_COLUMN: Column = { name: "app_type", type: "string" };

export function aggregationSourceColumns(query: SourceQuery): Column[] {
  const perAppType = aggregationRequestSets(query).some((appType) => appType !== undefined);
  return [
    ...AGGREGATION_BASE_COLUMNS,
    ...(perAppType ? [APP_TYPE_COLUMN] : []),
    ...aggregationColumns(query.aggs ?? {}),
  ];
}

/** The app type of each aggs request: v2 takes one per request, v3 all of them in one (undefined). */
export function aggregationRequestSets(query: SourceQuery): (string | undefined)[] {
  return query.kind === "logs" || query.kind === "workloads" ? query.app_type : [undefined];
}

/** One aggregation request over `bounds` for the source's kind and scope; the planner's probe uses it too. */
export async function fetchAggregations(
  client: ServiceClient,
  query: SourceQuery,
  aggs: Record<string, Record<string, unknown>>,
  bounds: { start_time: string; end_time: string },
  appType: string | undefined,
  signal?: AbortSignal,
): Promise<{ aggregations: unknown; total: number }> {
  const filters = query.filters.length > 0 ? { filters: query.filters as Record<string, unknown>[] } : {};
  // config/ checked application and app_type against the same rules; the client checks again.
  if (query.kind === "logs" || query.kind === "workloads") {
    const body = {
      application: query.application ?? "atr",
      app_type: appType,
      ...scopeOf(query),
      ...bounds,
      aggs,
      ...filters,
    };
    const response =
      query.kind === "logs"
        ? await client.call("/v2/logs/aggs", body as RequestOf<"/v2/logs/aggs">, { signal })
        : await client.call("/v2/workloads/aggs", body as RequestOf<"/v2/workloads/aggs">, { signal });
    return { aggregations: response.data.aggregations, total: response.data.total_documents };
  }
  const body = {
    application: query.application ?? "atr",
    app_type: query.app_type,
    domain: query.domain ?? ["*"],
    ...bounds,
    aggs,
    includes_eu: query.includes_eu,
    ...filters,
  } as RequestOf<"/v3/jobs/aggs">;
  const path =
    query.kind === "tickets"
      ? "/v3/tickets/aggs"
      : query.kind === "metrics"
        ? "/v3/metrics/aggs"
        : "/v3/jobs/aggs";
  const response = await client.call(path, body, { signal });
  return { aggregations: response.data.aggregations, total: response.data.total };
}

export function createAggregationSource(query: SourceQuery, client: ServiceClient): Source {
  return async function* (ctx): AsyncGenerator<Batch> {
    const bounds = timeBounds(ctx.slice);
    // v3 takes every app_type in one request; v2 takes one per request.
    for (const appType of aggregationRequestSets(query)) {
      const { aggregations } = await fetchAggregations(
        client,
        query,
        query.aggs ?? {},
        bounds,
        appType,
        ctx.signal,
      );
      const rows = aggregationRows(query.aggs ?? {}, aggregations, {
        slice_start: bounds.start_time,
        slice_end: bounds.end_time,
        // Without it the buckets of ec2 and of kubernetes would be rows with the same keys.
        ...(appType !== undefined ? { app_type: appType } : {}),
      });
      if (rows.length > 0) yield rows;
    }
  };
}
