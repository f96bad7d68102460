// Paging of /v3/jobs/query and /v3/tickets/query: point in time with `search_after`, until both come
// back null (the service then releases the point in time itself).
import type { RequestOf } from "../service-operation.js";
import type { PagingStrategy } from "./pager.js";
import { valueAt } from "../wire/request-spec.js";

/** The operations paged with a point in time (their request and response shapes are the same). */
export type PointInTimePath = "/v3/jobs/query" | "/v3/tickets/query";

type SortValue = string | number | null;

function toSortValues(values: readonly unknown[]): SortValue[] {
  return values.map((value) =>
    typeof value === "string" || typeof value === "number" || value === null ? value : JSON.stringify(value),
  );
}

type PointInTimeRequest = RequestOf<PointInTimePath>;

/**
 * The request after a page whose envelope's `meta` this is, or undefined when that page was the last
 * (a null cursor) or `meta` does not say, as an envelope read from the body's end may not.
 */
function continuation(
  meta: unknown,
  size: number | undefined,
  fields: PointInTimeRequest["fields"],
): PointInTimeRequest | undefined {
  const pitId = valueAt(meta, ["pagination", "pit_id"]);
  const searchAfter = valueAt(meta, ["pagination", "search_after"]);
  if (typeof pitId !== "string" || !Array.isArray(searchAfter)) return undefined;
  const next: PointInTimeRequest = { pit_id: pitId, search_after: toSortValues(searchAfter) };
  if (size !== undefined) next.size = size;
  if (fields !== undefined) next.fields = fields;
  return next;
}

/**
 * A point-in-time query from its first body. A 413 halves `size` and resends the same cursor; the
 * smaller size is kept for the pages after it, as are the `fields` asked for. The sort values of the
 * last hit must move on from page to page (the point in time may keep its id). The cursor is the
 * envelope's last member, so the next page is asked for as soon as a body is in (pager.ts).
 * @example
 * pageThrough(client, pointInTime("/v3/jobs/query", { application: "atr", app_type: ["ec2"], domain: ["*"], start_time, end_time, size: 1000 }), V3_HITS)
 */
export function pointInTime(
  path: PointInTimePath,
  body: PointInTimeRequest,
): PagingStrategy<PointInTimePath> {
  return {
    path,
    first: body,
    movesCursor: false,
    halves: true,
    total: (response) => response.data.total,
    next(response, size) {
      const next = continuation(response.meta, size, body.fields);
      return next && { body: next, cursor: JSON.stringify(response.meta.pagination.search_after) };
    },
    ahead: { member: "meta", next: (meta, size) => continuation(meta, size, body.fields) },
  };
}
