// Paging of /v3/jobs/query and /v3/tickets/query: point in time with `search_after`, until both come
// back null (the service then releases the point in time itself).
import type { RequestOf } from "../service-operation.js";
import type { PagingStrategy } from "./pager.js";

/** The operations paged with a point in time (their request and response shapes are the same). */
export type PointInTimePath = "/v3/jobs/query" | "/v3/tickets/query";

type SortValue = string | number | null;

function toSortValues(values: readonly unknown[]): SortValue[] {
  return values.map((value) =>
    typeof value === "string" || typeof value === "number" || value === null ? value : JSON.stringify(value),
  );
}

/**
 * A point-in-time query from its first body. A 413 halves `size` and resends the same cursor; the
 * smaller size is kept for the pages after it, as are the `fields` asked for. The sort values of the
 * last hit must move on from page to page (the point in time may keep its id).
 * @example
 * pageThrough(client, pointInTime("/v3/jobs/query", { application: "atr", app_type: ["ec2"], domain: ["*"], start_time, end_time, size: 1000 }), V3_HITS)
 */
export function pointInTime(
  path: PointInTimePath,
  body: RequestOf<PointInTimePath>,
): PagingStrategy<PointInTimePath> {
  return {
    path,
    first: body,
    movesCursor: false,
    halves: true,
    total: (response) => response.data.total,
    next(response, size) {
      const { pit_id: pitId, search_after: searchAfter } = response.meta.pagination;
      if (pitId === null || searchAfter === null) return undefined;
      const next: RequestOf<PointInTimePath> = { pit_id: pitId, search_after: toSortValues(searchAfter) };
      if (size !== undefined) next.size = size;
      if (body.fields !== undefined) next.fields = body.fields;
      return { body: next, cursor: JSON.stringify(searchAfter) };
    },
  };
}
