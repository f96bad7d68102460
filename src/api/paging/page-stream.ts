// One page request whose hits stream out as the body comes in: a generator of the page's hit batches
// that returns the response (its hits array empty). A request sent again (a body broken on the way, a
// smaller page after 413) starts its hits again at offset 0; those already yielded are skipped, so
// nothing is yielded twice.
import type { ServiceClient } from "../client.js";
import type { RequestOf } from "../service-operation.js";
import type { OperationPath } from "../wire/operations.js";
import type { HitArray } from "../../decoding/hit-array.js";
import type { PageHits } from "./page.js";
import { requestPage } from "./page-request.js";
import type { PageRequestOptions, RequestedPage } from "./page-request.js";
import type { HitBatch } from "../../decoding/hit-stream.js";

interface StreamedPage<P extends OperationPath> extends RequestedPage<P> {
  /** Hits the page held, and its first and last (for the paging guard; undefined when empty). */
  count: number;
  first: unknown;
  last: unknown;
}

/**
 * Yields the hits of one page in batches and returns the response.
 * @example
 * const { response, count } = yield* streamPage(client, "/v3/jobs/query", body, V3_HITS, { isContinuation: false }, 1);
 */
export async function* streamPage<P extends OperationPath, Hit>(
  client: ServiceClient,
  path: P,
  body: RequestOf<P> & { size?: number },
  hitArray: HitArray,
  options: PageRequestOptions,
  pageNumber: number,
): AsyncGenerator<PageHits<Hit>, StreamedPage<P>> {
  const batches: AsyncIterator<HitBatch, RequestedPage<P>> = requestPage(
    client,
    path,
    body,
    hitArray,
    options,
  );
  let delivered = 0;
  let first: unknown;
  let last: unknown;
  try {
    for (;;) {
      const next = await batches.next();
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
    await batches.return?.();
  }
}
