// Paging of /v2/logs/scroll and /v2/workloads/scroll: follow `meta.scroll_id` while it is present.
// The two differ: logs report `data.count` as the query's total and may keep a scroll_id on the last
// page; workloads report the page's count, the total as `workloads_available`, and a scroll_id only
// when more results are available.
import type { ServiceClient } from "../client.js";
import type { RequestOf } from "../service-operation.js";
import type { Hit } from "../wire/hits.js";
import type { HitArray } from "../../decoding/hit-array.js";
import { withReader } from "../../decoding/hit-array.js";
import type { PageHits, PagePart, PagingOptions } from "./page.js";
import { streamPage } from "./page-stream.js";
import { PagingGuard } from "./paging-guard.js";
import type { GuardedPage } from "./paging-guard.js";

/** A page's hit count and its first and last hits, as the paging guard takes them. */
type Ends = Pick<GuardedPage, "count" | "first" | "last">;

/** What to scroll: the kind and its initial request body. */
export type V2ScrollQuery =
  | { kind: "logs"; body: RequestOf<"/v2/logs/scroll"> }
  | { kind: "workloads"; body: RequestOf<"/v2/workloads/scroll"> };

/** Streams one page's hits; returns what the guard needs, the query's total and the cursor. */
async function* fetchPage(
  client: ServiceClient,
  target: V2ScrollQuery,
  hits: HitArray,
  isContinuation: boolean,
  pageNumber: number,
  signal: AbortSignal | undefined,
): AsyncGenerator<PageHits<Hit>, { ends: Ends; total: number | undefined; scrollId: string | undefined }> {
  const options = { signal, isContinuation, movesCursor: true };
  if (target.kind === "logs") {
    const { response, count, first, last } = yield* streamPage<"/v2/logs/scroll", Hit>(
      client,
      "/v2/logs/scroll",
      target.body,
      hits,
      options,
      pageNumber,
    );
    return { ends: { count, first, last }, total: response.data.count, scrollId: response.meta.scroll_id };
  }
  const { response, count, first, last } = yield* streamPage<"/v2/workloads/scroll", Hit>(
    client,
    "/v2/workloads/scroll",
    target.body,
    hits,
    options,
    pageNumber,
  );
  return {
    ends: { count, first, last },
    total: response.meta.workloads_available,
    scrollId: response.meta.scroll_id,
  };
}

/**
 * Pages a v2 scroll to its end. A paging request carries only `scroll_id` (the spec makes every other
 * field optional then). `hits` says where the responses keep their hits. Throws
 * PagingContextLostError when the scroll is gone.
 * @example
 * for await (const part of v2ScrollPaging(client, { kind: "workloads", body: { application: "atr", app_type: "ec2", domain: ["*"], start_time, end_time } }, v2HitArray("workloads"))) if (part.type === "hits") write(part.hits);
 */
export async function* v2ScrollPaging(
  client: ServiceClient,
  query: V2ScrollQuery,
  hits: HitArray,
  options: PagingOptions = {},
): AsyncGenerator<PagePart<Hit>> {
  let target = query;
  let isContinuation = false;
  // A scroll keeps its id from page to page, so the guard watches the pages and the total instead.
  const guard = new PagingGuard(query.kind === "logs" ? "/v2/logs/scroll" : "/v2/workloads/scroll");
  for (let pageNumber = 1; ; pageNumber += 1) {
    const page = yield* fetchPage(
      client,
      target,
      withReader(hits, options.reader),
      isContinuation,
      pageNumber,
      options.signal,
    );
    guard.page({ ...page.ends, total: page.total, size: undefined });
    yield { type: "end", pageNumber, count: page.ends.count, total: page.total };
    // An empty page ends the scroll even if a scroll_id comes with it, so a stale cursor cannot loop.
    if (page.scrollId === undefined || page.scrollId === "" || page.ends.count === 0) return;
    target = { kind: target.kind, body: { scroll_id: page.scrollId } };
    isContinuation = true;
  }
}
