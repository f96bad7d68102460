// Sends one paging request and yields its hits as the body streams in: on a v3 query a 413 halves `size` and resends the same cursor (down to a
// floor), and on a continuation request a lost scroll or point-in-time context becomes its own error.
// A body over the client's byte cap counts as a 413 where the cursor stays put (point in time, first
// requests); where the server already moved its cursor, the page is gone and the error says so.
// A request sent again (a body broken on the way, a smaller page) starts its hits again at offset 0;
// `readPage` (page-stream.ts) skips those already yielded, so nothing is yielded twice.
import type { Buffer } from "node:buffer";
import { ApiError, ERROR_CODES, hasCode, isApiError, PagingContextLostError } from "../../errors.js";
import type { ServiceClient } from "../client.js";
import type { RequestOf, ResponseOf } from "../service-operation.js";
import type { OperationPath } from "../wire/operations.js";
import type { HttpStatusError } from "../http-status-error.js";
import { isHttpStatusError } from "../http-status-error.js";
import type { HitArray } from "../../decoding/hit-array.js";
import type { HitBatch } from "../../decoding/hit-stream.js";
import type { ReadAheadOptions } from "../read-ahead.js";

const CONTEXT_WORDS = /scroll|pit\b|pit_id|point.in.time|search_after|context|cursor|expired/i;

/**
 * Whether an error on a continuation request means the service no longer knows the cursor. The spec
 * does not say how this looks, so any plausible variant counts: 404 or 410, or a 400/409/422 whose
 * message speaks of the scroll, the point in time or the context.
 */
function isContextLost(error: unknown): error is HttpStatusError {
  if (!isHttpStatusError(error)) return false;
  if (error.status === 404 || error.status === 410) return true;
  return [400, 409, 422].includes(error.status) && CONTEXT_WORDS.test(error.detail);
}

export interface PageRequestOptions {
  signal?: AbortSignal;
  /** The body carries a cursor (scroll_id, pit_id): a 404 then means the context is lost. */
  isContinuation: boolean;
  /** The cursor lives on the server and moves with each answer (scroll, not point in time). */
  movesCursor?: boolean;
  /** v3 queries only: halve `size` on 413, never below this. */
  halving?: { minSize: number };
  /**
   * Read the body ahead of its decoder and hand over its last bytes, with the page size they answer,
   * once it has all come in, so that the next request can go out early.
   */
  readAhead?: Omit<ReadAheadOptions, "onEnd"> & { onEnd: (tail: Buffer, size: number | undefined) => void };
}

/** The response of a page request (its hits array empty) and the page size that worked. */
export interface RequestedPage<P extends OperationPath> {
  response: ResponseOf<P>;
  size: number | undefined;
}

/** A 413 from the service, or a 2xx body over the client's cap when the same cursor can be asked again. */
function isTooLarge(error: unknown, cursorMoved: boolean): error is ApiError {
  if (isHttpStatusError(error)) return error.status === 413;
  return isApiError(error) && hasCode(error, ERROR_CODES.RESPONSE_TOO_LARGE) && !cursorMoved;
}

/**
 * Sends `body`, halving `body.size` on 413 when allowed, and yields the hits of `hits` in batches.
 * Every request sent again (a broken body, a smaller page) yields its hits from offset 0 again.
 * Returns the response (its hits array empty) and the size that worked.
 * @example
 * const { response, size } = yield* requestPage(client, "/v3/jobs/query", body, V3_HITS, { isContinuation: false, halving: { minSize: 1 } });
 */
export async function* requestPage<P extends OperationPath>(
  client: ServiceClient,
  path: P,
  body: RequestOf<P> & { size?: number },
  hits: HitArray,
  options: PageRequestOptions,
): AsyncGenerator<HitBatch, RequestedPage<P>> {
  let current = body;
  const idempotent = !(options.isContinuation && options.movesCursor === true);
  for (;;) {
    try {
      const sent = current;
      const ahead = options.readAhead;
      const response = yield* client.stream(path, current, hits, {
        signal: options.signal,
        idempotent,
        readAhead: ahead && { ...ahead, onEnd: (tail) => ahead.onEnd(tail, sent.size) },
      });
      return { response, size: current.size };
    } catch (error) {
      // The service no longer knows the cursor, or its answer was lost after the cursor moved.
      const lost = isApiError(error) && hasCode(error, ERROR_CODES.RESPONSE_LOST);
      if (lost || (options.isContinuation && isContextLost(error)))
        throw new PagingContextLostError(path, { status: error.status, cause: error });
      if (!isTooLarge(error, !idempotent) || options.halving === undefined) throw error;
      const size = current.size ?? 100;
      const next = Math.floor(size / 2);
      if (next < options.halving.minSize) {
        throw new ApiError(
          `${path} answered HTTP 413 (response over the service's payload limit) even with size ${size}; ` +
            "request fewer fields with `fields`, or export with a batch operation",
          { operation: path, status: 413, retryable: false, cause: error },
          "PAYLOAD_TOO_LARGE",
        );
      }
      client.logger.warn(
        { operation: path, size, nextSize: next, code: error.code },
        "Halving the page size after HTTP 413 or a response over max_response_bytes.",
      );
      current = { ...current, size: next };
    }
  }
}
