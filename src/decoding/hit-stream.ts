// Decodes a page of hits as its body streams in: each hit is parsed and checked on its own and yielded
// in batches, so memory is bounded by the batch size, not the page size, and the body is read no
// faster than the batches are taken. The envelope (total, cursor, quota) is the generator's return
// value, with the hits array emptied, for the operation's wire schema to check.
import { ApiError, isApiError } from "../errors.js";
import type { HitArray } from "./hit-array.js";
import { HitScanner } from "./hit-scanner.js";
import { parseJson } from "./json-exact.js";

/** Hits handed on at once: about 0.7 MB of jobs, whatever the page size. */
export const HIT_BATCH_SIZE = 1000;

/**
 * A batch of hits with, for each, the UTF-8 bytes of its `_source` exactly as the service sent them
 * when they were compact (undefined otherwise), so an output can copy them instead of serialising the
 * parsed object again.
 */
export interface HitBatch {
  /** Position of the first hit in the response: a resent request starts again at 0. */
  offset: number;
  hits: unknown[];
  sources: (Uint8Array | undefined)[];
}

/** The body is not JSON (cut short on the way, or malformed): the caller decides whether to resend. */
export class MalformedBodyError extends Error {}

/**
 * Reads `body`, yielding the hits of `hitArray` in batches of at most `batchSize`; returns the
 * envelope. Throws MalformedBodyError when the body is not JSON, ApiError when a hit breaks the wire
 * schema (`operation` names it), and the body's own error when the connection fails.
 * @example
 * const envelope = yield* decodeHits(response.body, V3_HITS, "/v3/jobs/query");
 */
export async function* decodeHits(
  body: AsyncIterable<Uint8Array>,
  hitArray: HitArray,
  operation: string,
  batchSize = HIT_BATCH_SIZE,
): AsyncGenerator<HitBatch, unknown> {
  let hits: unknown[] = [];
  let sources: (Uint8Array | undefined)[] = [];
  let offset = 0;
  let index = 0;
  const reader = hitArray.reader;
  const add = (hit: unknown, source: Uint8Array | undefined): void => {
    hits.push(hit);
    sources.push(source);
    index += 1;
  };
  /** A hit the reader takes where it starts, before the scan looks for its end (see HitScanner). */
  const takeAtStart =
    reader === undefined
      ? undefined
      : (bytes: Buffer, start: number, limit: number): number => {
          const read = reader.read(bytes, start, limit, hitArray.v3, true);
          if (read !== undefined) add(read.row, read.source);
          return read === undefined ? -1 : read.end;
        };
  const scanner = new HitScanner(
    hitArray.path,
    (element) => {
      // A hit the reader saw whole where it started and declined is not read again.
      const read = element.offered
        ? undefined
        : reader?.read(element.bytes, element.start, element.end, hitArray.v3);
      if (read !== undefined) return add(read.row, read.source);
      const text = element.bytes.toString("utf8", element.start, element.end);
      let hit: unknown;
      try {
        // Integers beyond 2^53 as bigints of their digits: an int64 stays exact (decoding/json-exact.ts).
        hit = parseJson(text);
      } catch (error) {
        throw new MalformedBodyError(`hit ${index} is not JSON`, { cause: error });
      }
      const checked = hitArray.accepts(hit) ? undefined : hitArray.schema.safeParse(hit);
      if (checked !== undefined && !checked.success) {
        const issue = checked.error.issues[0];
        const where = [hitArray.path.join("."), index, ...(issue?.path ?? [])].join(".");
        throw new ApiError(
          `${operation} answered a body that does not follow the spec (${where}: ${issue?.message})`,
          { operation, retryable: false },
        );
      }
      const { compact, sourceStart, sourceEnd } = element;
      add(hit, compact && sourceStart >= 0 ? element.bytes.subarray(sourceStart, sourceEnd) : undefined);
    },
    takeAtStart,
  );
  /** The first `batchSize` hits gathered (or all, when fewer), taken out of the buffer. */
  const take = (): HitBatch => {
    let batch: HitBatch;
    if (hits.length <= batchSize) {
      batch = { offset, hits, sources };
      hits = [];
      sources = [];
    } else batch = { offset, hits: hits.splice(0, batchSize), sources: sources.splice(0, batchSize) };
    offset += batch.hits.length;
    return batch;
  };
  for await (const chunk of body) {
    try {
      scanner.push(chunk);
    } catch (error) {
      if (isApiError(error) || error instanceof MalformedBodyError) throw error;
      throw new MalformedBodyError("the body is not JSON", { cause: error });
    }
    while (hits.length >= batchSize) yield take();
  }
  let envelope: unknown;
  try {
    envelope = JSON.parse(scanner.end());
  } catch (error) {
    throw new MalformedBodyError("the body ends before its JSON does", { cause: error });
  }
  while (hits.length > 0) yield take();
  return envelope;
}
