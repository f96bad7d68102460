// Paging of /v3/jobs/query and /v3/tickets/query: point in time with `search_after`, until both come
// back null (the service then releases the point in time itself).
import type { ServiceClient } from "../client.js";
import type { RequestOf } from "../service-operation.js";
import type { V3Hit } from "../wire/hits.js";
import type { HitArray } from "../../decoding/hit-array.js";
import { withReader } from "../../decoding/hit-array.js";
import type { PagePart, V3PagingOptions } from "./page.js";
import { streamPage } from "./page-stream.js";
import { PagingGuard } from "./paging-guard.js";

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
 * Pages a point-in-time query to its end. A 413 halves `size` and resends the same cursor; the
 * smaller size is kept for the pages after it. `hits` says where the responses keep their hits (the
 * kind's, usually V3_HITS). Throws PagingContextLostError when the point in time is gone.
 * @example
 * for await (const part of pointInTimePaging(client, "/v3/jobs/query", { application: "atr", app_type: ["ec2"], domain: ["*"], start_time, end_time, size: 1000 }, V3_HITS)) if (part.type === "hits") write(part.hits);
 */
export async function* pointInTimePaging(
  client: ServiceClient,
  path: PointInTimePath,
  body: PointInTimeRequest,
  hits: HitArray,
  options: V3PagingOptions = {},
): AsyncGenerator<PagePart<V3Hit>> {
  const halving = { minSize: options.minSize ?? 1 };
  const guard = new PagingGuard(path);
  let request = body;
  let isContinuation = false;
  for (let pageNumber = 1; ; pageNumber += 1) {
    const { response, size, count, first, last } = yield* streamPage<PointInTimePath, V3Hit>(
      client,
      path,
      request,
      withReader(hits, options.reader),
      { signal: options.signal, isContinuation, halving },
      pageNumber,
    );
    guard.page({ count, first, last, total: response.data.total, size });
    yield { type: "end", pageNumber, count, total: response.data.total };
    const { pit_id: pitId, search_after: searchAfter } = response.meta.pagination;
    if (pitId === null || searchAfter === null || count === 0) return;
    // The point in time may keep its id; the sort values of the last hit must move on.
    guard.cursor(JSON.stringify(searchAfter));
    request = { pit_id: pitId, search_after: toSortValues(searchAfter) };
    if (size !== undefined) request.size = size;
    if (body.fields !== undefined) request.fields = body.fields;
    isContinuation = true;
  }
}
