// Paging by scroll: the service keeps a cursor that moves with each answer, and each page's answer
// hands back the id to ask for the next one, until it comes back empty. The deprecated v1 logs
// scroll, the v2 scrolls and the v3 metrics scroll each say it in their own envelope.
import type { RequestOf, ResponseOf } from "../service-operation.js";
import type { PagingStrategy } from "./pager.js";

/** The operations paged by a v2 scroll. */
type V2ScrollPath = "/v2/logs/scroll" | "/v2/workloads/scroll";

type MetricsQuery = RequestOf<"/v3/metrics/query">;

/**
 * A v1 logs scroll from its query (`/v1/logs/scroll`): resend the query with the last `scroll_id`
 * while `has_more`. v1 wants the whole query on every request, with the cursor beside it, and reports
 * no total: only a page repeated is recognised as a loop.
 * @example
 * pageThrough(client, v1Scroll({ application: "atr", time_range: "now-1d/d" }), v1HitArray("logs"))
 */
export function v1Scroll(body: RequestOf<"/v1/logs/scroll">): PagingStrategy<"/v1/logs/scroll"> {
  const { scroll_id: _ignored, ...query } = body;
  return {
    path: "/v1/logs/scroll",
    first: query,
    movesCursor: true,
    halves: false,
    total: () => undefined,
    next(response) {
      const scrollId = response.scroll_id;
      if (!response.has_more || scrollId === null || scrollId === "") return undefined;
      return { body: { ...query, scroll_id: scrollId } };
    },
  };
}

/**
 * A v2 scroll (`/v2/<kind>/scroll`) from its first body: follow `meta.scroll_id` while it is present.
 * A paging request carries only `scroll_id` (the spec makes every other field optional then). Where
 * the answer reports the query's total differs by operation (logs: `data.count`; workloads:
 * `meta.workloads_available`), so the kind's `total` reads it from an answer.
 * @example
 * pageThrough(client, v2Scroll("/v2/workloads/scroll", body, (response) => response.meta.workloads_available), v2HitArray("workloads"))
 */
export function v2Scroll<P extends V2ScrollPath>(
  path: P,
  body: RequestOf<P>,
  total: (response: ResponseOf<P>) => number | undefined,
): PagingStrategy<P> {
  return {
    path,
    first: body,
    movesCursor: true,
    halves: false,
    total,
    next(response) {
      // Every v2 scroll keeps its cursor at `meta.scroll_id`.
      const scrollId = (response as ResponseOf<V2ScrollPath>).meta.scroll_id;
      if (scrollId === undefined || scrollId === "") return undefined;
      const next: RequestOf<V2ScrollPath> = { scroll_id: scrollId };
      return { body: next as RequestOf<P> };
    },
  };
}

/**
 * A metrics scroll (`/v3/metrics/query`) from its first body: follow `meta.pagination.scroll_id`
 * until it is null (no cleanup needed), halving `size` on 413 and keeping the same scroll.
 * @example
 * pageThrough(client, metricsScroll({ application: "atr", app_type: ["ec2"], domain: ["*"], start_time, end_time }), V3_HITS)
 */
export function metricsScroll(body: MetricsQuery): PagingStrategy<"/v3/metrics/query"> {
  return {
    path: "/v3/metrics/query",
    first: body,
    movesCursor: true,
    halves: true,
    total: (response) => response.data.total,
    next(response, size) {
      const scrollId = response.meta.pagination.scroll_id;
      if (scrollId === null || scrollId === "") return undefined;
      const next: MetricsQuery = { scroll_id: scrollId };
      if (size !== undefined) next.size = size;
      if (body.fields !== undefined) next.fields = body.fields;
      return { body: next };
    },
  };
}
