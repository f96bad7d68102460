// What a kind's paging call hands the paged source: one query's pages. Taken from the source's own
// signature, so the kinds follow it when the pages change shape.
import type { createPagedSource } from "./paged-source.js";

/** One paged query, as the paged source reads it. */
export type PagedQuery = Parameters<typeof createPagedSource>[0] extends (
  ...args: never[]
) => Iterable<infer Query>
  ? Query
  : never;
