// Decodes a page of hits as its body streams in: each hit is parsed and checked on its own and handed
// on in batches, so memory is bounded by the batch size, not the page size. The envelope (total,
// cursor, quota) comes back with the hits array emptied, for the operation's wire schema to check.
import type { z } from "zod";
import { ApiError, isApiError } from "../../errors.js";
import { hitSchema, v3HitSchema } from "../wire/hits.js";
import { HitScanner } from "./hit-scanner.js";
import type { ScannedElement } from "./hit-scanner.js";

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

/** Receives each batch; the body is not read further until the promise settles (backpressure). */
export type HitConsumer = (batch: HitBatch) => Promise<void>;

interface HitArray {
  path: readonly string[];
  schema: z.ZodType;
  /**
   * A plain check that accepts only what `schema` accepts, run first: zod per hit was 6% of a
   * profile. A hit it refuses goes to `schema`, which decides and names the field.
   */
  accepts: (hit: unknown) => boolean;
}

type HitFields = Partial<Record<"_index" | "_id" | "_score" | "_source" | "sort", unknown>>;

function isHit(hit: unknown): hit is HitFields {
  if (typeof hit !== "object" || hit === null) return false;
  const { _index: index, _id: id, _source: source } = hit as HitFields;
  return (
    typeof index === "string" &&
    typeof id === "string" &&
    typeof source === "object" &&
    source !== null &&
    !Array.isArray(source)
  );
}

const isSortValue = (value: unknown): boolean =>
  value === null || typeof value === "string" || (typeof value === "number" && Number.isFinite(value));

/** hitSchema: `_score` a number, null or absent. */
function acceptsHit(hit: unknown): boolean {
  if (!isHit(hit)) return false;
  const score = hit._score;
  return score === undefined || score === null || (typeof score === "number" && Number.isFinite(score));
}

/** v3HitSchema: `_score` a number or null, `sort` an array of strings, numbers and nulls. */
function acceptsV3Hit(hit: unknown): boolean {
  if (!isHit(hit)) return false;
  const score = hit._score;
  if (score !== null && !(typeof score === "number" && Number.isFinite(score))) return false;
  return Array.isArray(hit.sort) && hit.sort.every(isSortValue);
}

const V3_HITS = { path: ["data", "hits"], schema: v3HitSchema, accepts: acceptsV3Hit };

/** Where each paged operation keeps its hits, and the schema of one hit. */
export const HIT_ARRAYS: Readonly<Record<string, HitArray>> = {
  "/v3/jobs/query": V3_HITS,
  "/v3/tickets/query": V3_HITS,
  "/v3/metrics/query": V3_HITS,
  "/v2/logs/scroll": { path: ["data", "logs"], schema: hitSchema, accepts: acceptsHit },
  "/v2/workloads/scroll": { path: ["data", "workloads"], schema: hitSchema, accepts: acceptsHit },
  "/v1/logs/scroll": { path: ["logs"], schema: hitSchema, accepts: acceptsHit },
};

/** The body is not JSON (cut short on the way, or malformed): the caller decides whether to resend. */
export class MalformedBodyError extends Error {}

/**
 * The consumer failed: carried through the retry loop untouched (it is not the service's fault, so it
 * is never retried) and unwrapped by the caller with `reason`.
 */
export class HitConsumerError extends Error {
  constructor(readonly reason: unknown) {
    super("the consumer of a page's hits failed");
  }
}

function verbatimSource(element: ScannedElement): Uint8Array | undefined {
  if (!element.compact || element.sourceStart < 0) return undefined;
  return element.bytes.subarray(element.sourceStart, element.sourceEnd);
}

/**
 * Reads `body`, handing hits to `consume` in batches of at most `batchSize`; returns the envelope.
 * Throws MalformedBodyError when the body is not JSON, ApiError when a hit breaks the wire schema,
 * HitConsumerError when the consumer fails, and the body's error when the connection fails.
 * @example
 * const envelope = await decodeHitStream(response.body, "/v3/jobs/query", async ({ hits }) => write(hits));
 */
export async function decodeHitStream(
  body: AsyncIterable<Uint8Array>,
  operation: string,
  consume: HitConsumer,
  batchSize = HIT_BATCH_SIZE,
): Promise<unknown> {
  const target = HIT_ARRAYS[operation];
  if (target === undefined) throw new Error(`${operation} has no hits to stream`);
  const batch: HitBatch = { offset: 0, hits: [], sources: [] };
  let index = 0;
  const scanner = new HitScanner(target.path, (element) => {
    const text = element.bytes.toString("utf8", element.start, element.end);
    let hit: unknown;
    try {
      hit = JSON.parse(text);
    } catch (error) {
      throw new MalformedBodyError(`hit ${index} is not JSON`, { cause: error });
    }
    const checked = target.accepts(hit) ? undefined : target.schema.safeParse(hit);
    if (checked !== undefined && !checked.success) {
      const issue = checked.error.issues[0];
      const where = [target.path.join("."), index, ...(issue?.path ?? [])].join(".");
      throw new ApiError(
        `${operation} answered a body that does not follow the spec (${where}: ${issue?.message})`,
        {
          operation,
          retryable: false,
        },
      );
    }
    batch.hits.push(hit);
    batch.sources.push(verbatimSource(element));
    index += 1;
  });
  /** Hands on the first `batchSize` hits gathered (or all, when fewer). */
  const handOn = async (): Promise<void> => {
    const count = Math.min(batch.hits.length, batchSize);
    const full: HitBatch = {
      offset: batch.offset,
      hits: batch.hits.splice(0, count),
      sources: batch.sources.splice(0, count),
    };
    batch.offset += count;
    try {
      await consume(full);
    } catch (error) {
      throw new HitConsumerError(error);
    }
  };
  for await (const chunk of body) {
    try {
      scanner.push(chunk);
    } catch (error) {
      if (isApiError(error) || error instanceof MalformedBodyError) throw error;
      throw new MalformedBodyError("the body is not JSON", { cause: error });
    }
    if (batch.hits.length >= batchSize) await handOn();
  }
  let envelope: unknown;
  try {
    envelope = JSON.parse(scanner.end());
  } catch (error) {
    throw new MalformedBodyError("the body ends before its JSON does", { cause: error });
  }
  while (batch.hits.length > 0) await handOn();
  return envelope;
}
