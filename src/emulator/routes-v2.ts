// v2 operations: logs and workloads scroll, batch export and status, aggregations.
import type { Aggregations } from "../api/wire/aggs.js";
import { planQuery } from "./plan.js";
import type { Body, QueryPlan } from "./plan.js";
import { scan } from "./scan.js";
import { createAggregator } from "./aggregations.js";
import { v2Meta } from "./route-context.js";
import { nextScrollPage } from "./scroll-context.js";
import type { Route, RouteContext, RouteResult } from "./route-context.js";

/** The scope echoes of a v2 request: domain, or log_group/tenant/stage for serverless. */
function scopeEcho(body: Body): Body {
  if (body["app_type"] === "serverless") {
    return { log_group: body["log_group"], tenant: body["tenant"], stage: body["stage"] };
  }
  return { domain: body["domain"] };
}

function scroll(kind: "logs" | "workloads"): Route {
  return (ctx) => {
    const next = nextScrollPage(ctx, "sc_");
    if ("lost" in next) return next.lost;
    const { context, page, more, commit } = next;
    const { plan } = context;
    const scrollMeta = more ? { scroll_id: context.id } : {};
    if (kind === "logs") {
      const data = { logs: page.hits, count: context.count.total };
      return { status: 200, body: { data, meta: v2Meta(ctx, plan, scrollMeta) }, commit };
    }
    const echo = {
      app_type: plan.streams[0]?.appType ?? ctx.body["app_type"],
      domain: [...new Set(plan.streams.map((s) => s.scope))],
    };
    const meta = v2Meta(ctx, plan, { ...echo, ...scrollMeta, workloads_available: context.count.total });
    return { status: 200, body: { data: { workloads: page.hits, count: page.hits.length }, meta }, commit };
  };
}

function batch(kind: "logs" | "workloads"): Route {
  return (ctx) => {
    const plan = planQuery(ctx.path, ctx.body, ctx.state.options);
    const job = ctx.state.batches.create(kind, plan);
    const meta = v2Meta(ctx, plan, { app_type: ctx.body["app_type"], ...scopeEcho(ctx.body) });
    return { status: 200, body: { data: { token: job.token }, meta } };
  };
}

function batchStatus(kind: "logs" | "workloads"): Route {
  return (ctx) => {
    const job = ctx.state.batches.get(String(ctx.body["token"]));
    if (!job) {
      const hours = ctx.state.options.batchTokenTtlSeconds / 3600;
      const message = `batch token not found; tokens expire after ${hours} hours`;
      return { status: 404, body: { message, ...(kind === "logs" ? { error: "token_not_found" } : {}) } };
    }
    const countKey = kind === "logs" ? "log_count" : "workload_count";
    const partitions = ctx.state.batches.poll(job, ctx.baseUrl).map((view) => ({
      start_time: new Date(view.partition.plan.startMs).toISOString(),
      end_time: new Date(view.partition.plan.endMs).toISOString(),
      [countKey]: view.count,
      presigned_url: view.url ?? "null",
      completed: view.status === "completed",
      status: view.status,
    }));
    return { status: 200, body: { presigned_urls: partitions, meta: v2Meta(ctx, job.plan) } };
  };
}

/** Aggregations over every match of the plan; shared by v2 and v3. */
export function aggregate(ctx: RouteContext): { plan: QueryPlan; aggregations: unknown; total: number } {
  const plan = planQuery(ctx.path, ctx.body, ctx.state.options);
  const { clock, maxBuckets } = ctx.state.options;
  const aggregator = createAggregator(ctx.body["aggs"] as Aggregations, clock(), maxBuckets);
  let total = 0;
  scan(plan, -1, (source) => {
    total++;
    aggregator.add(source);
    return true;
  });
  return { plan, aggregations: aggregator.result(), total };
}

const aggs: Route = (ctx): RouteResult => {
  const { plan, aggregations, total } = aggregate(ctx);
  const echo = {
    application: ctx.body["application"],
    app_type: ctx.body["app_type"],
    ...scopeEcho(ctx.body),
  };
  return {
    status: 200,
    body: { data: { aggregations, total_documents: total }, meta: v2Meta(ctx, plan, echo) },
  };
};

export const V2_ROUTES = {
  "/v2/logs/scroll": scroll("logs"),
  "/v2/logs/batch": batch("logs"),
  "/v2/logs/batch/status": batchStatus("logs"),
  "/v2/logs/aggs": aggs,
  "/v2/workloads/scroll": scroll("workloads"),
  "/v2/workloads/batch": batch("workloads"),
  "/v2/workloads/batch/status": batchStatus("workloads"),
  "/v2/workloads/aggs": aggs,
} satisfies Record<string, Route>;
