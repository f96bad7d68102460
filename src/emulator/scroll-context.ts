// The scroll contexts every scroll operation shares (v1 logs, v2 logs and workloads, v3 metrics): a
// paging request resumes its context (or learns it is lost), an initial request opens one.
import type { PagingContext } from "./contexts.js";
import { planQuery } from "./plan.js";
import { countPlan } from "./scan.js";
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
