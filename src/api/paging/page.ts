// The page every paging mechanism yields: the hits of one response and what the service said about
// the whole query.

/**
 * One response's hits.
 * @example
 * for await (const page of pointInTimePaging(client, "/v3/jobs/query", body)) rows.push(...page.hits.map((h) => h._source));
 */
export interface Page<Hit> {
  hits: Hit[];
  /**
   * The UTF-8 bytes of each hit's `_source` exactly as the service sent them, when compact (undefined
   * otherwise): an output may copy these instead of serialising the parsed record again.
   */
  sources?: readonly (Uint8Array | undefined)[];
  /** Records the whole query holds, when the service reports it (v2 logs count, v3 total, workloads_available). */
  total: number | undefined;
  /** 1 for the first page. */
  pageNumber: number;
}

export interface PagingOptions {
  signal?: AbortSignal;
}

/** v3 queries: options for 413 handling. */
export interface V3PagingOptions extends PagingOptions {
  /** Smallest `size` to fall back to on 413 before giving up. Default 1. */
  minSize?: number;
}
