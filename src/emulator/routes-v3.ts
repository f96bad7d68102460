// v3 operations: mappings, jobs/tickets point-in-time query, metrics scroll query, aggregations.
import { V3_DEFAULT_SIZE } from "../api/wire/common.js";
import type { GeneratedKind } from "./generated-kind.js";
import { mappingFields } from "./mappings.js";
import { aggregate } from "./routes-v2.js";
import { errorBody, v3Meta } from "./route-context.js";
import { nextPage, nextScrollPage, openOrResume } from "./scroll-context.js";
import type { Route, RouteContext, RouteResult } from "./route-context.js";
import type { Body } from "./plan.js";
import type { ContextPage } from "./scroll-context.js";

function mappings(kind: GeneratedKind): Route {
  return (ctx) => {
    const appType = typeof ctx.body["app_type"] === "string" ? ctx.body["app_type"] : undefined;
    const { fieldChanges, awkward } = ctx.state.options;
    const fields = mappingFields(kind, appType, fieldChanges[kind], awkward);
    return { status: 200, body: { data: { fields, field_count: fields.length }, meta: v3Meta(ctx) } };
  };
}

const sizeOf = (value: unknown) => (typeof value === "number" ? value : V3_DEFAULT_SIZE);

/** A v3 query's page: its hits, the query's total, and the pagination that goes on from it. */
function queryPage(ctx: RouteContext, next: ContextPage, pagination: Body): RouteResult {
  const { hits } = next.page;
  return {
    status: 200,
    body: {
      data: { hits, total: next.context.count.total, count: hits.length },
      meta: v3Meta(ctx, { pagination }),
    },
    payloadLimited: true,
    commit: next.commit,
  };
}

/** The pagination of a point in time's last page, and of every aggregation. */
const PIT_DONE = { pit_id: null, search_after: null };

/** Jobs and tickets: the position to resume from is the last sort value of `search_after`. */
const pitQuery: Route = (ctx) => {
  const { body, path } = ctx;
  const pitId = typeof body["pit_id"] === "string" ? body["pit_id"] : undefined;
  const context = openOrResume(ctx, pitId, "pit_", "point in time");
  if ("status" in context) return context;
  const after = pitId === undefined ? -1 : (body["search_after"] as unknown[])[1];
  if (typeof after !== "number" || !Number.isInteger(after) || after < -1) {
    const details = "search_after must be the sort array of the last hit of the previous page";
    return { status: 400, body: errorBody(path, 400, "bad_request", details) };
  }
  const next = nextPage(ctx, context, after, sizeOf(body["size"]));
  const last = next.page.hits.at(-1);
  return queryPage(ctx, next, next.more ? { pit_id: context.id, search_after: last?.sort } : PIT_DONE);
};

const metricsQuery: Route = (ctx) => {
  const next = nextScrollPage(ctx, "msc_");
  if ("lost" in next) return next.lost;
  return queryPage(ctx, next, { scroll_id: next.more ? next.context.id : null });
};

const aggs: Route = (ctx) => {
  const { aggregations, total } = aggregate(ctx);
  return {
    status: 200,
    body: {
      data: { aggregations, total },
      meta: v3Meta(ctx, { pagination: PIT_DONE }),
    },
  };
};

export const V3_ROUTES = {
  "/v3/logs/mappings": mappings("logs"),
  "/v3/workloads/mappings": mappings("workloads"),
  "/v3/jobs/mappings": mappings("jobs"),
  "/v3/tickets/mappings": mappings("tickets"),
  "/v3/metrics/mappings": mappings("metrics"),
  "/v3/jobs/query": pitQuery,
  "/v3/tickets/query": pitQuery,
  "/v3/metrics/query": metricsQuery,
  "/v3/jobs/aggs": aggs,
  "/v3/tickets/aggs": aggs,
  "/v3/metrics/aggs": aggs,
} satisfies Record<string, Route>;
