// Paging of /v3/metrics/query: follow `meta.pagination.scroll_id` until it is null (no cleanup needed).
import type { RequestOf } from "../service-operation.js";
import type { PagingStrategy } from "./pager.js";

type MetricsQuery = RequestOf<"/v3/metrics/query">;

/**
 * A metrics scroll from its first body, halving `size` on 413 and keeping the same scroll.
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
