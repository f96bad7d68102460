// The one paging loop. Each paging mechanism of the service (point in time, the scrolls) is a
// strategy: its first request, the next request read from a page's answer (none once it has ended),
// and what its answers say about the whole query. The loop sends, streams each page's hits on,
// watches the cursors (paging-guard.ts) and follows the strategy until it ends or a page is empty.
import type { ServiceClient } from "../client.js";
import type { RequestOf, ResponseOf } from "../service-operation.js";
import type { OperationPath } from "../wire/operations.js";
import type { Hit, V3Hit } from "../wire/hits.js";
import type { HitArray } from "../../decoding/hit-array.js";
import { withReader } from "../../decoding/hit-array.js";
import type { PagePart, PagingOptions } from "./page.js";
import { streamPage } from "./page-request.js";
import { PagingGuard } from "./paging-guard.js";

/** One hit of an operation's answers: v3 hits carry their sort values. */
type HitOf<P extends OperationPath> = P extends `/v3/${string}` ? V3Hit : Hit;

/** A page request's body: the operation's, with the page `size` a 413 may halve. */
export type PageBody<P extends OperationPath> = RequestOf<P> & { size?: number };

/** The request after a page, and the cursor in it that must never come back (a point in time's). */
export interface NextPage<P extends OperationPath> {
  body: PageBody<P>;
  cursor?: string;
}

/**
 * One paging mechanism.
 * @example
 * const strategy: PagingStrategy<"/v3/metrics/query"> = metricsScroll(body);
 */
export interface PagingStrategy<P extends OperationPath> {
  /** The operation every page request goes to. */
  readonly path: P;
  readonly first: PageBody<P>;
  /** A continuation moves a cursor on the server (a scroll): an answer broken on the way loses its page. */
  readonly movesCursor: boolean;
  /** The requests carry `size`, halved on 413 and kept for the pages after (v3 queries). */
  readonly halves: boolean;
  /** The records the whole query holds, when this page's answer says. */
  total(response: ResponseOf<P>): number | undefined;
  /** The request for the page after this answer's, or undefined when this was the last. */
  next(response: ResponseOf<P>, size: number | undefined): NextPage<P> | undefined;
}

/**
 * Pages `strategy` to its end, yielding each page as batches of its hits, then its end. `hits` says
 * where the answers keep their hits. Throws PagingContextLostError when a cursor is gone, and
 * PAGING_RUNAWAY when the pages cannot belong to a paging that ends.
 * @example
 * for await (const part of pageThrough(client, pointInTime("/v3/jobs/query", body), V3_HITS)) if (part.type === "hits") write(part.hits);
 */
export async function* pageThrough<P extends OperationPath>(
  client: ServiceClient,
  strategy: PagingStrategy<P>,
  hits: HitArray,
  options: PagingOptions = {},
): AsyncGenerator<PagePart<HitOf<P>>> {
  const guard = new PagingGuard(strategy.path);
  const halving = strategy.halves ? { minSize: options.minSize ?? 1 } : undefined;
  const hitArray = withReader(hits, options.reader);
  let body = strategy.first;
  let isContinuation = false;
  for (let pageNumber = 1; ; pageNumber += 1) {
    const pageOptions = {
      signal: options.signal,
      isContinuation,
      movesCursor: strategy.movesCursor,
      halving,
    };
    const page = yield* streamPage<P, HitOf<P>>(
      client,
      strategy.path,
      body,
      hitArray,
      pageOptions,
      pageNumber,
    );
    const { response, size, count, first, last } = page;
    const total = strategy.total(response);
    // The page size asked for bounds the requests only where the requests carry one.
    guard.page({ count, first, last, total, size: strategy.halves ? size : undefined });
    yield { type: "end", pageNumber, count, total };
    // An empty page ends the paging even if a cursor comes with it, so a stale cursor cannot loop.
    const next = count === 0 ? undefined : strategy.next(response, size);
    if (next === undefined) return;
    if (next.cursor !== undefined) guard.cursor(next.cursor);
    body = next.body;
    isContinuation = true;
  }
}
