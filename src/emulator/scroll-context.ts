// The paging contexts every paged operation shares (v1 logs, v2 logs and workloads scrolls, v3 metrics
// scroll and jobs/tickets point in time): a paging request resumes its context (or learns it is lost),
// an initial request opens one, and a page is read from it.
import type { PagingContext } from "./contexts.js";
import { planQuery } from "./plan.js";
import type { Body, QueryPlan } from "./plan.js";
import { compileProjection } from "./projection.js";
import { countPlan, readPage } from "./scan.js";
import type { Page } from "./scan.js";
import { contextLost } from "./route-context.js";
import type { RouteContext, RouteResult } from "./route-context.js";

/**
 * The context a paging request names by `id` (gone when the request drew a context loss), or a new
 * one (its id starting with `prefix`) for an initial request, whose `id` is undefined.
 */
export function openOrResume(
  ctx: RouteContext,
  id: string | undefined,
  prefix: string,
  what: "scroll" | "point in time",
): PagingContext | RouteResult {
  const { state, body, path } = ctx;
  if (id === undefined) {
    const plan = planQuery(path, body, state.options);
    return state.contexts.open(plan, countPlan(plan), prefix);
  }
  if (ctx.faults.contextLoss) state.contexts.release(id);
  return state.contexts.get(id) ?? contextLost(path, what);
}

/** A request that names `fields` narrows its page (an initial one's plan already has them). */
function withFields(plan: QueryPlan, body: Body): QueryPlan {
  if (!Array.isArray(body["fields"])) return plan;
  return { ...plan, projection: compileProjection(body["fields"] as string[]) };
}

/** A context's next page: what it holds, whether more follow, and the commit that moves on. */
export type ContextPage = { context: PagingContext; page: Page; more: boolean; commit: () => void };

/** The page of up to `size` records after position `after`; the commit releases a finished context. */
export function nextPage(
  ctx: RouteContext,
  context: PagingContext,
  after: number,
  size: number,
): ContextPage {
  const page = readPage(withFields(context.plan, ctx.body), after, size);
  const more = page.hits.length > 0 && page.lastPosition < context.count.lastPosition;
  const commit = () => {
    context.position = page.lastPosition;
    if (!more) ctx.state.contexts.release(context.id);
  };
  return { context, page, more, commit };
}

/** A scroll's next page: a paging request that names `size` resizes it (else the initial size holds). */
export function nextScrollPage(ctx: RouteContext, prefix: string): ContextPage | { lost: RouteResult } {
  const { body } = ctx;
  const scrollId = typeof body["scroll_id"] === "string" ? body["scroll_id"].trim() : "";
  const context = openOrResume(ctx, scrollId === "" ? undefined : scrollId, prefix, "scroll");
  if ("status" in context) return { lost: context };
  const size = typeof body["size"] === "number" ? body["size"] : context.plan.size;
  return nextPage(ctx, context, context.position, size);
}
