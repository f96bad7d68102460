// Paging of /v3/jobs/query and /v3/tickets/query: point in time with `search_after`, until both come
// back null (the service then releases the point in time itself).
import type { ServiceClient } from "../client.js";
import type { RequestOf } from "../service-operation.js";
import type { V3Hit } from "../wire/hits.js";
import type { HitArray } from "./hit-array.js";
import { withReader } from "./hit-array.js";
import type { PagePart, V3PagingOptions } from "./page.js";
import { readPage, startPage } from "./page-stream.js";
import type { StartedPage } from "./page-stream.js";
import { trailingMember } from "./trailing-member.js";
import { READ_AHEAD_BYTES } from "./read-ahead.js";
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

/** A page the pager started: the request its body announced at its end, and the gate of its decoding. */
interface PagerPage {
  started: StartedPage<PointInTimePath>;
  /** The next request, read from the body's end before the hits were decoded (set once). */
  announced: PointInTimeRequest | undefined;
  /** Lets a page asked for ahead be decoded: when it becomes the current page, or is let go. */
  letRead: () => void;
}

/** What the page asked for ahead reads before it is the current one: about its first batch of hits. */
const AHEAD_PAGE_BYTES = 1024 * 1024;

/**
 * The request for the page after the one whose envelope's `meta` this is, or undefined when it was
 * the last (a null cursor) or `meta` does not say (what an envelope read early may not).
 */
function continuation(
  meta: unknown,
  size: number | undefined,
  fields: PointInTimeRequest["fields"],
): PointInTimeRequest | undefined {
  if (typeof meta !== "object" || meta === null) return undefined;
  const pagination = (meta as { pagination?: unknown }).pagination;
  if (typeof pagination !== "object" || pagination === null) return undefined;
  const { pit_id: pitId, search_after: searchAfter } = pagination as Record<string, unknown>;
  if (typeof pitId !== "string" || !Array.isArray(searchAfter)) return undefined;
  const request: PointInTimeRequest = { pit_id: pitId, search_after: toSortValues(searchAfter) };
  if (size !== undefined) request.size = size;
  if (fields !== undefined) request.fields = fields;
  return request;
}

/**
 * Pages a point-in-time query to its end. A 413 halves `size` and resends the same cursor; the
 * smaller size is kept for the pages after it. `hits` says where the responses keep their hits (the
 * kind's, usually V3_HITS). Throws PagingContextLostError when the point in time is gone.
 *
 * The next page is asked for as soon as the current page's body is in, with the cursor read from the
 * body's end (trailing-member.ts), while its hits are still being decoded: the service's latency then
 * passes while the outputs work. That early request is used only when it is exactly the one the
 * envelope, parsed and checked once the page is read, asks for; otherwise it is let go and the right
 * one is sent. At most one page is asked for ahead.
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
  const hitArray = withReader(hits, options.reader);
  const guard = new PagingGuard(path);
  let current: PagerPage | undefined;
  let ahead: PagerPage | undefined;

  const askAhead = (): void => {
    const next = current?.announced;
    if (ahead === undefined && next !== undefined) ahead = start(next, true, false);
  };
  const start = (request: PointInTimeRequest, isContinuation: boolean, readNow: boolean): PagerPage => {
    let letRead = (): void => undefined;
    const readable = readNow ? undefined : new Promise<void>((resolve) => (letRead = resolve));
    const page: PagerPage = {
      started: startPage(client, path, request, hitArray, {
        signal: options.signal,
        isContinuation,
        halving,
        readAhead: {
          onEnd: (tail, size) => {
            if (page.announced !== undefined) return;
            page.announced = continuation(trailingMember(tail, "meta"), size, body.fields);
            if (page === current) askAhead();
          },
          // The page asked for ahead reads only its start until it is the one being read, and
          // decodes nothing before then: its hits would wait in memory, decoded, for nothing.
          limit: () => (page === current ? READ_AHEAD_BYTES : AHEAD_PAGE_BYTES),
          readable,
        },
      }),
      announced: undefined,
      letRead: () => letRead(),
    };
    return page;
  };
  const letGo = (page: PagerPage | undefined): void => {
    page?.started.abandon();
    page?.letRead();
  };

  try {
    current = start(body, false, true);
    for (let pageNumber = 1; ; pageNumber += 1) {
      const { response, size, count, first, last } = yield* readPage<PointInTimePath, V3Hit>(
        current.started,
        pageNumber,
      );
      guard.page({ count, first, last, total: response.data.total, size });
      yield { type: "end", pageNumber, count, total: response.data.total };
      const { pit_id: pitId, search_after: searchAfter } = response.meta.pagination;
      if (pitId === null || searchAfter === null || count === 0) return;
      // The point in time may keep its id; the sort values of the last hit must move on.
      guard.cursor(JSON.stringify(searchAfter));
      const next = continuation(response.meta, size, body.fields) as PointInTimeRequest;
      const early = ahead;
      ahead = undefined;
      if (early !== undefined && JSON.stringify(early.started.body) === JSON.stringify(next)) {
        current = early;
        early.letRead();
      } else {
        letGo(early);
        current = start(next, true, true);
      }
      askAhead();
    }
  } finally {
    letGo(ahead);
  }
}
