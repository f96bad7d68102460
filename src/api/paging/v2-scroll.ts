// Paging of the v2 scrolls (/v2/<kind>/scroll): follow `meta.scroll_id` while it is present. Where
// the answer reports the query's total differs by operation (logs: `data.count`; workloads:
// `meta.workloads_available`), so the kind says where to read it.
import type { RequestOf, ResponseOf } from "../service-operation.js";
import type { PagingStrategy } from "./pager.js";

/** The operations paged by a v2 scroll. */
type V2ScrollPath = "/v2/logs/scroll" | "/v2/workloads/scroll";

/**
 * A v2 scroll from its first body. A paging request carries only `scroll_id` (the spec makes every
 * other field optional then). `total` reads what the whole query holds from an answer.
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
