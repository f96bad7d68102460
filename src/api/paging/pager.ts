// The one paging loop. Each paging mechanism of the service (point in time, the scrolls) is a
// strategy: its first request, the next request read from a page's answer (none once it has ended),
// and what its answers say about the whole query. The loop sends, streams each page's hits on,
// watches the cursors (paging-guard.ts) and follows the strategy until it ends or a page is empty.
// A strategy whose next request can be read from the end of a page's body (point in time) has it
// sent while the page is still being decoded: the round trip then passes while the outputs work.
import type { ServiceClient } from "../client.js";
import type { RequestOf, ResponseOf } from "../service-operation.js";
import type { OperationPath } from "../wire/operations.js";
import type { Hit, V3Hit } from "../wire/hits.js";
import type { HitArray } from "../../decoding/hit-array.js";
import { withReader } from "../../decoding/hit-array.js";
import type { PagePart, PagingOptions } from "./page.js";
import { readPage, startPage } from "./page-stream.js";
import type { StartedPage } from "./page-stream.js";
import { trailingMember } from "../../decoding/trailing-member.js";
import { READ_AHEAD_BYTES } from "../read-ahead.js";
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
  /**
   * The next request as the envelope's `member` says it, read from the body's last bytes before the
   * page is decoded. Nothing there is checked yet: `next` must refuse any shape the wire schema
   * would, and what it makes is used only when it is exactly what `next` makes from the checked answer.
   */
  readonly ahead?: {
    member: string;
    next(value: unknown, size: number | undefined): PageBody<P> | undefined;
  };
}

/** A page on its way, and the request its body's end announced (set once it has all come in). */
interface PagerPage<P extends OperationPath> {
  started: StartedPage<P>;
  announced: PageBody<P> | undefined;
  /** Lets a page asked for ahead be decoded: when it becomes the page being read, or is let go. */
  letRead: () => void;
}

/**
 * What a page asked for ahead reads before it is the one being read (about its first batch of hits):
 * decoded earlier, its hits would wait in memory for nothing.
 */
const AHEAD_PAGE_BYTES = 1024 * 1024;

/**
 * Pages `strategy` to its end, yielding each page as batches of its hits, then its end. `hits` says
 * where the answers keep their hits. Throws PagingContextLostError when a cursor is gone, and
 * PAGING_RUNAWAY when the pages cannot belong to a paging that ends. With `strategy.ahead`, at most one
 * page is asked for ahead, and one the checked answer does not ask for is let go unread.
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
  const ahead = strategy.ahead;
  let current: PagerPage<P> | undefined;
  let early: PagerPage<P> | undefined;

  const askAhead = (): void => {
    const next = current?.announced;
    if (early === undefined && next !== undefined) early = start(next, true, false);
  };
  const start = (body: PageBody<P>, isContinuation: boolean, readNow: boolean): PagerPage<P> => {
    let letRead = (): void => undefined;
    const readable = readNow ? undefined : new Promise<void>((resolve) => (letRead = resolve));
    const page: PagerPage<P> = {
      started: startPage(client, strategy.path, body, hitArray, {
        signal: options.signal,
        isContinuation,
        movesCursor: strategy.movesCursor,
        halving,
        readAhead: ahead && {
          onEnd: (tail, size) => {
            if (page.announced !== undefined) return;
            page.announced = ahead.next(trailingMember(tail, ahead.member), size);
            if (page === current) askAhead();
          },
          limit: () => (page === current ? READ_AHEAD_BYTES : AHEAD_PAGE_BYTES),
          readable,
        },
      }),
      announced: undefined,
      letRead: () => letRead(),
    };
    return page;
  };
  const letGo = (page: PagerPage<P> | undefined): void => {
    page?.started.abandon();
    page?.letRead();
  };

  try {
    current = start(strategy.first, false, true);
    for (let pageNumber = 1; ; pageNumber += 1) {
      const page = yield* readPage<P, HitOf<P>>(current.started, pageNumber);
      const { response, size, count, first, last } = page;
      const total = strategy.total(response);
      // The page size asked for bounds the requests only where the requests carry one.
      guard.page({ count, first, last, total, size: strategy.halves ? size : undefined });
      yield { type: "end", pageNumber, count, total };
      // An empty page ends the paging even if a cursor comes with it, so a stale cursor cannot loop.
      const next = count === 0 ? undefined : strategy.next(response, size);
      if (next === undefined) return;
      if (next.cursor !== undefined) guard.cursor(next.cursor);
      const asked = early;
      early = undefined;
      if (asked !== undefined && JSON.stringify(asked.started.body) === JSON.stringify(next.body)) {
        current = asked;
        asked.letRead();
      } else {
        letGo(asked);
        current = start(next.body, true, true);
      }
      askAhead();
    }
  } finally {
    letGo(early);
  }
}
