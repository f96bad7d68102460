// What every paging mechanism yields. A page streams in: its hits come in batches as the body is read,
// and what the service said about the whole query (the total) is known only once the page's envelope,
// after the hits, has been read. So a page is told as its batches of hits, then its end.
import type { HitBytesReader } from "../../core/hit-reader.js";

/**
 * A batch of one page's hits, in the order the service sent them. A page yields one or more of these
 * (none when it is empty), then its PageEnd.
 */
export interface PageHits<Hit> {
  type: "hits";
  /** 1 for the first page. */
  pageNumber: number;
  hits: Hit[];
  /**
   * The UTF-8 bytes of each hit's `_source` exactly as the service sent them, when compact (undefined
   * otherwise): an output may copy these instead of serialising the parsed record again.
   */
  sources: readonly (Uint8Array | undefined)[];
}

/** A page read to its end, with what its envelope said. */
export interface PageEnd {
  type: "end";
  pageNumber: number;
  /** Hits the page held. */
  count: number;
  /** Records the whole query holds, when the service reports it (v2 logs count, v3 total, workloads_available). */
  total: number | undefined;
}

/**
 * What a paging yields: each page as batches of its hits, then its end.
 * @example
 * for await (const part of pageThrough(client, pointInTime("/v3/jobs/query", body), V3_HITS))
 *   if (part.type === "hits") rows.push(...part.hits.map((hit) => hit._source));
 *   else total ??= part.total;
 */
export type PagePart<Hit> = PageHits<Hit> | PageEnd;

export interface PagingOptions {
  signal?: AbortSignal;
  /** Takes hits from their bytes where the slice's outputs allow (the reader of SliceContext.records). */
  reader?: HitBytesReader | undefined;
  /** Where the paging halves `size` on 413 (v3 queries): the smallest to fall back to. Default 1. */
  minSize?: number;
}
