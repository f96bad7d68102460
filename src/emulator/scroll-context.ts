// The scroll contexts every scroll operation shares (v1 logs, v2 logs and workloads, v3 metrics): a
// paging request resumes its context (or learns it is lost), an initial request opens one.
import type { PagingContext } from "./contexts.js";
import { planQuery } from "./plan.js";
import { compileProjection } from "./projection.js";
import { countPlan, readPage } from "./scan.js";
import type { Page } from "./scan.js";
import { contextLost } from "./route-context.js";
import type { RouteContext, RouteResult } from "./route-context.js";

type ScrollStart = { context: PagingContext; scrollId: string } | { lost: RouteResult };

/** Resumes the context a `scroll_id` names, or opens one for an initial request (ids start with `prefix`). */
export function resumeOrOpenScroll(ctx: RouteContext, prefix: string): ScrollStart {
  const { state, body, path } = ctx;
  const scrollId = typeof body["scroll_id"] === "string" ? body["scroll_id"].trim() : "";
  if (scrollId) {
    if (ctx.faults.contextLoss) state.contexts.release(scrollId);
    const context = state.contexts.get(scrollId);
    return context === undefined ? { lost: contextLost(path, "scroll") } : { context, scrollId };
  }
  const plan = planQuery(path, body, state.options);
  return { context: state.contexts.open(plan, countPlan(plan), prefix), scrollId };
}

/** A scroll's next page (v2 and v3): what it holds, whether more follow, and the commit that moves on. */
type ScrollPage = { context: PagingContext; page: Page; more: boolean; commit: () => void };

/**
 * Reads the page a scroll request asks for: a paging request that names `fields` narrows its page, and
 * one that names `size` resizes it (else the initial size holds).
 */
export function nextScrollPage(ctx: RouteContext, prefix: string): ScrollPage | { lost: RouteResult } {
  const start = resumeOrOpenScroll(ctx, prefix);
  if ("lost" in start) return start;
  const { context, scrollId } = start;
  const { state, body } = ctx;
  const plan =
    Array.isArray(body["fields"]) && scrollId
      ? { ...context.plan, projection: compileProjection(body["fields"] as string[]) }
      : context.plan;
  const size = typeof body["size"] === "number" ? body["size"] : context.plan.size;
  const page = readPage(plan, context.position, size);
  const more = page.hits.length > 0 && page.lastPosition < context.count.lastPosition;
  const commit = () => {
    context.position = page.lastPosition;
    if (!more) state.contexts.release(context.id);
  };
  return { context, page, more, commit };
}
