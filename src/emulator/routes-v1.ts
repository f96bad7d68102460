// v1 operations (logs deprecated; billing query): flat bodies with `daily_requests_remaining`.
import { planQuery } from "./plan.js";
import { countPlan, readPage } from "./scan.js";
import { timeRangeWindow } from "./time-range.js";
import { KIND_DATA } from "./kind-data.js";
import { errorBody } from "./route-context.js";
import { resumeOrOpenScroll } from "./scroll-context.js";
import type { Route, RouteContext } from "./route-context.js";
import type { BatchJob } from "./batch-store.js";

const scroll: Route = (ctx) => {
  const { state, body } = ctx;
  const start = resumeOrOpenScroll(ctx, "v1sc_");
  if ("lost" in start) return start.lost;
  const { context } = start;
  const size = typeof body["size"] === "number" ? body["size"] : context.plan.size;
  const page = readPage(context.plan, context.position, size);
  const more = page.hits.length > 0 && page.lastPosition < context.count.lastPosition;
  const live = context;
  return {
    status: 200,
    body: { logs: page.hits, scroll_id: live.id, has_more: more, daily_requests_remaining: ctx.remaining },
    commit: () => {
      live.position = page.lastPosition;
      if (!more) state.contexts.release(live.id);
    },
  };
};

const batch: Route = (ctx) => {
  const job = ctx.state.batches.create("logs", planQuery(ctx.path, ctx.body, ctx.state.options));
  return { status: 200, body: { logs: [], token: job.token, daily_requests_remaining: ctx.remaining } };
};

function links(ctx: RouteContext, job: BatchJob) {
  return ctx.state.batches.poll(job, ctx.baseUrl).map((view) => ({
    presigned_url: view.url ?? "null",
    time_range: `${new Date(view.partition.startMs).toISOString()}/${new Date(view.partition.endMs).toISOString()}`,
    ready: view.status === "completed",
    status: view.status,
    log_count: view.count,
  }));
}

/** Batch URLs: 401 for an unknown or expired batch token, as the spec shows. */
const batchUrls: Route = (ctx) => {
  const job = ctx.state.batches.get(String(ctx.body["token"]));
  if (!job)
    return { status: 401, body: errorBody(ctx.path, 401, "unauthorized", "invalid or expired batch token") };
  return { status: 200, body: { presigned_urls: links(ctx, job), daily_requests_remaining: ctx.remaining } };
};

/** Batch status (not shown by the spec): the same links; 404 for an unknown token. */
const batchStatus: Route = (ctx) => {
  const job = ctx.state.batches.get(String(ctx.body["token"]));
  if (!job)
    return { status: 404, body: errorBody(ctx.path, 404, "not_found", "unknown or expired batch token") };
  return { status: 200, body: { presigned_urls: links(ctx, job), daily_requests_remaining: ctx.remaining } };
};

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
  "/v1/logs/batch/urls": batchUrls,
  "/v1/logs/batch/status": batchStatus,
  "/v1/query": query,
} satisfies Record<string, Route>;
