// v3 operations: mappings, jobs/tickets point-in-time query, metrics scroll query, aggregations.
import { V3_DEFAULT_SIZE } from "../api/wire/common.js";
import type { GeneratedKind } from "./generated-kind.js";
import { mappingFields } from "./mappings.js";
import { aggregate } from "./routes-v2.js";
import { errorBody, v3Meta } from "./route-context.js";
import { nextPage, nextScrollPage, openOrResume } from "./scroll-context.js";
import type { Route } from "./route-context.js";

function mappings(kind: GeneratedKind): Route {
  return (ctx) => {
    const appType = typeof ctx.body["app_type"] === "string" ? ctx.body["app_type"] : undefined;
    const { fieldChanges, awkward } = ctx.state.options;
    const fields = mappingFields(kind, appType, fieldChanges[kind], awkward);
    return { status: 200, body: { data: { fields, field_count: fields.length }, meta: v3Meta(ctx) } };
  };
}

const sizeOf = (value: unknown) => (typeof value === "number" ? value : V3_DEFAULT_SIZE);

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
  const { page, more, commit } = nextPage(ctx, context, after, sizeOf(body["size"]));
  const pagination = more
    ? { pit_id: context.id, search_after: page.hits.at(-1)?.sort }
    : { pit_id: null, search_after: null };
  return {
    status: 200,
    body: {
      data: { hits: page.hits, total: context.count.total, count: page.hits.length },
      meta: v3Meta(ctx, { pagination }),
    },
    payloadLimited: true,
    commit,
  };
};

const metricsQuery: Route = (ctx) => {
  const next = nextScrollPage(ctx, "msc_");
  if ("lost" in next) return next.lost;
  const { context, page, more, commit } = next;
  return {
    status: 200,
    body: {
      data: { hits: page.hits, total: context.count.total, count: page.hits.length },
      meta: v3Meta(ctx, { pagination: { scroll_id: more ? context.id : null } }),
    },
    payloadLimited: true,
    commit,
  };
};

const aggs: Route = (ctx) => {
  const { aggregations, total } = aggregate(ctx);
  return {
    status: 200,
    body: {
      data: { aggregations, total },
      meta: v3Meta(ctx, { pagination: { pit_id: null, search_after: null } }),
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
