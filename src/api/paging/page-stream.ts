// One page request whose hits stream out as the body comes in: a generator of the page's hit batches
// that returns the response (its hits array empty). A request sent again (a body broken on the way, a
// smaller page after 413) starts its hits again at offset 0; those already yielded are skipped, so
// nothing is yielded twice.
import type { ServiceClient } from "../client.js";
import type { RequestOf } from "../service-operation.js";
import type { OperationPath } from "../wire/operations.js";
import type { HitArray } from "../../decoding/hit-array.js";
import { whenAborted } from "../../core/when-aborted.js";
import type { PageHits } from "./page.js";
import { requestPage } from "./page-request.js";
import type { PageRequestOptions, RequestedPage } from "./page-request.js";
import type { HitBatch } from "../../decoding/hit-stream.js";

export interface StreamedPage<P extends OperationPath> extends RequestedPage<P> {
  /** Hits the page held, and its first and last (for the paging guard; undefined when empty). */
  count: number;
  first: unknown;
  last: unknown;
}

/**
 * A page whose request is already on its way: sent when it was started, read when `readPage` reads
 * it. The paging loop starts its next page while the current one is still being read (pager.ts), and
 * lets it go with `abandon` when it turns out not to be the page it needs.
 */
export interface StartedPage<P extends OperationPath> {
  readonly body: RequestOf<P> & { size?: number };
  readonly batches: AsyncIterator<HitBatch, RequestedPage<P>>;
  /** The first step of `batches`, taken when the page was started. */
  readonly first: Promise<IteratorResult<HitBatch, RequestedPage<P>>>;
  /** Cancels the request and drops what it brings; what it fails with is dropped too. */
  abandon(): void;
  /** The page was read (or its reading failed): stop following the caller's signal. */
  release(): void;
}

/**
 * Sends the request of one page and returns it started, for `readPage`.
 * @example
 * const next = startPage(client, "/v3/jobs/query", body, V3_HITS, { isContinuation: true });
 */
export function startPage<P extends OperationPath>(
  client: ServiceClient,
  path: P,
  body: RequestOf<P> & { size?: number },
  hitArray: HitArray,
  options: PageRequestOptions,
): StartedPage<P> {
  const controller = new AbortController();
  const release = whenAborted(options.signal, () => controller.abort(options.signal?.reason));
  const batches: AsyncIterator<HitBatch, RequestedPage<P>> = requestPage(client, path, body, hitArray, {
    ...options,
    signal: controller.signal,
  });
  const first = batches.next();
  // Its failure is thrown where the page is read; a page abandoned unread must not leave it unhandled.
  first.then(undefined, () => undefined);
  return {
    body,
    batches,
    first,
    abandon() {
      controller.abort(new Error("the page was not needed"));
      release();
      void first
        .then(
          () => batches.return?.(),
          () => undefined,
        )
        .then(undefined, () => undefined);
    },
    release,
  };
}

/**
 * Yields the hits of a started page in batches and returns the response.
 * @example
 * const { response, count } = yield* readPage(startPage(client, path, body, V3_HITS, options), 2);
 */
export async function* readPage<P extends OperationPath, Hit>(
  page: StartedPage<P>,
  pageNumber: number,
): AsyncGenerator<PageHits<Hit>, StreamedPage<P>> {
  const batches = page.batches;
  let delivered = 0;
  let first: unknown;
  let last: unknown;
  let step: Promise<IteratorResult<HitBatch, RequestedPage<P>>> | undefined = page.first;
  try {
    for (;;) {
      const next = await (step ?? batches.next());
      step = undefined;
      if (next.done === true) return { ...next.value, count: delivered, first, last };
      const { offset, hits, sources } = next.value;
      const skip = Math.max(0, delivered - offset);
      if (hits.length <= skip) continue;
      delivered = offset + hits.length;
      const fresh = skip === 0 ? hits : hits.slice(skip);
      first ??= fresh[0];
      last = fresh[fresh.length - 1];
      yield {
        type: "hits",
        pageNumber,
        // The hits were checked against the operation's hit schema as they were decoded.
        hits: fresh as Hit[],
        sources: skip === 0 ? sources : sources.slice(skip),
      };
    }
  } finally {
    // Stopped early (the reader broke off, or failed): let the request go and its body with it.
    page.release();
    await batches.return?.();
  }
}
