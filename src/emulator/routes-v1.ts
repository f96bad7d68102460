// v1 operations (logs deprecated; billing query): flat bodies with `daily_requests_remaining`.
import { planQuery, timeRangeWindow } from "./plan.js";
import { countPlan } from "./scan.js";
import { KIND_DATA } from "./kind-data.js";
import { errorBody } from "./route-context.js";
import { nextScrollPage } from "./scroll-context.js";
import type { Route } from "./route-context.js";

const scroll: Route = (ctx) => {
  const next = nextScrollPage(ctx, "v1sc_");
  if ("lost" in next) return next.lost;
  const { context, page, more, commit } = next;
  const body = {
    logs: page.hits,
    scroll_id: context.id,
    has_more: more,
    daily_requests_remaining: ctx.remaining,
  };
  return { status: 200, body, commit };
};

const batch: Route = (ctx) => {
  const job = ctx.state.batches.create("logs", planQuery(ctx.path, ctx.body, ctx.state.options));
  return { status: 200, body: { logs: [], token: job.token, daily_requests_remaining: ctx.remaining } };
};

/** Batch URLs (401 for an unknown or expired token, as the spec shows) and status (not shown: 404). */
function batchLinks(status: 401 | 404, error: string, details: string): Route {
  return (ctx) => {
    const job = ctx.state.batches.get(String(ctx.body["token"]));
    if (!job) return { status, body: errorBody(ctx.path, status, error, details) };
    const links = ctx.state.batches.poll(job, ctx.baseUrl).map((view) => ({
      presigned_url: view.url ?? "null",
      time_range: `${new Date(view.partition.plan.startMs).toISOString()}/${new Date(view.partition.plan.endMs).toISOString()}`,
      ready: view.status === "completed",
      status: view.status,
      log_count: view.count,
    }));
    return { status: 200, body: { presigned_urls: links, daily_requests_remaining: ctx.remaining } };
  };
}

/** Billing summary of one domain, counting the records its table entry names in the window. */
const query: Route = (ctx) => {
  const { options } = ctx.state;
  const domain = String(ctx.body["domain"]);
  const timeRange = String(ctx.body["time_range"]);
  const { startMs, endMs } = timeRangeWindow(timeRange, options.clock());
  const plan = planQuery(ctx.path, { domain, time_range: timeRange }, options);
  const { summarize } = KIND_DATA.billing;
  const count = countPlan(plan).total;
  const summary = summarize({ seed: options.seed, domain, timeRange, startMs, endMs, count });
  return { status: 200, body: { summary, daily_requests_remaining: ctx.remaining } };
};

export const V1_ROUTES = {
  "/v1/logs/scroll": scroll,
  "/v1/logs/batch": batch,
  "/v1/logs/batch/urls": batchLinks(401, "unauthorized", "invalid or expired batch token"),
  "/v1/logs/batch/status": batchLinks(404, "not_found", "unknown or expired batch token"),
  "/v1/query": query,
} satisfies Record<string, Route>;
