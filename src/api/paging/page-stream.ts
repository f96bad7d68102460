// One page request whose hits stream out as the body comes in: a generator of page batches that
// returns the response (its hits array empty). A resent request (after a body broken on the way)
// starts its hits again; those already handed on are skipped, so nothing is yielded twice.
import type { ServiceClient } from "../client.js";
import type { RequestOf, ResponseOf } from "../service-call.js";
import type { OperationPath } from "../wire/operations.js";
import type { HitBatch } from "./hit-stream.js";
import type { Page } from "./page.js";
import { requestPage } from "./page-request.js";
import type { PageRequestOptions } from "./page-request.js";

export interface StreamedPage<P extends OperationPath> {
  response: ResponseOf<P>;
  size: number | undefined;
  /** Hits the page held, and its first and last (for the paging guard; undefined when empty). */
  count: number;
  first: unknown;
  last: unknown;
}

interface Waiting {
  batch: HitBatch;
  taken: () => void;
  refused: (reason: unknown) => void;
}

/**
 * Yields the hits of one page in batches (`total` undefined) and returns the response.
 * @example
 * const { response } = yield* streamPage(client, "/v3/jobs/query", body, { isContinuation: false }, 1);
 */
export async function* streamPage<P extends OperationPath, Hit>(
  client: ServiceClient,
  path: P,
  body: RequestOf<P> & { size?: number },
  options: Omit<PageRequestOptions, "onHits">,
  pageNumber: number,
): AsyncGenerator<Page<Hit>, StreamedPage<P>> {
  const queue: Waiting[] = [];
  let wake: (() => void) | undefined;
  let closed = false;
  let delivered = 0;
  let first: unknown;
  let last: unknown;
  let outcome:
    | { ok: true; value: Awaited<ReturnType<typeof requestPage<P>>> }
    | { ok: false; error: unknown }
    | undefined;
  const request = requestPage(client, path, body, {
    ...options,
    onHits: (batch) =>
      new Promise<void>((taken, refused) => {
        if (closed) refused(new Error("the page's reader stopped"));
        else {
          queue.push({ batch, taken, refused });
          wake?.();
        }
      }),
  }).then(
    (value) => (outcome = { ok: true, value }),
    (error: unknown) => (outcome = { ok: false, error }),
  );
  void request.then(() => wake?.());
  let current: Waiting | undefined;
  try {
    for (;;) {
      current = queue.shift();
      if (current !== undefined) {
        const { offset, hits, sources } = current.batch;
        // A resent request hands on its hits from the start again: skip those yielded before.
        const skip = Math.max(0, delivered - offset);
        if (hits.length > skip) {
          delivered = offset + hits.length;
          const page =
            skip === 0 ? { hits, sources } : { hits: hits.slice(skip), sources: sources.slice(skip) };
          first ??= page.hits[0];
          last = page.hits[page.hits.length - 1];
          yield { hits: page.hits as Hit[], sources: page.sources, total: undefined, pageNumber };
        }
        current.taken();
        current = undefined;
        continue;
      }
      if (outcome !== undefined) break;
      await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
    }
    if (!outcome.ok) throw outcome.error;
    return { ...outcome.value, count: delivered, first, last };
  } finally {
    closed = true;
    const stop = new Error("the page's reader stopped");
    current?.refused(stop);
    for (const waiting of queue.splice(0)) waiting.refused(stop);
    await request;
  }
}
