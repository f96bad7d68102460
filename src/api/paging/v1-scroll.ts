// Paging of the deprecated /v1/logs/scroll: resend the query with the last `scroll_id` while `has_more`.
import type { RequestOf } from "../service-operation.js";
import type { PagingStrategy } from "./pager.js";

/**
 * A v1 logs scroll from its query. v1 wants the whole query on every request, with the cursor beside
 * it, and reports no total: only a page repeated is recognised as a loop.
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
