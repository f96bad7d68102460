// Where an operation's response keeps its hits, and what one hit must look like: the paged queries
// differ only in these, so a kind passes its operation's description to the paging and nothing here
// lists operations (the operations' own arrays are in api/hit-arrays.ts).
import type { z } from "zod";
import type { HitBytesReader } from "../core/hit-reader.js";

/**
 * The hits array of a paged response: its path from the body's root, the wire schema of one hit and a
 * plain pre-check.
 * @example
 * const hits: HitArray = { path: ["data", "logs"], schema: hitSchema, accepts, v3: false };
 */
export interface HitArray {
  path: readonly string[];
  schema: z.ZodType;
  /**
   * A plain check that accepts only what `schema` accepts, run first: zod per hit was 6% of a
   * profile. A hit it refuses goes to `schema`, which decides and names the field.
   */
  accepts: (hit: unknown) => boolean;
  /** The v3 shape (`sort` required) or the v1/v2 one: what a bytes reader checks. */
  v3: boolean;
  /** Takes hits from their bytes before they are parsed (see HitBytesReader); none by default. */
  reader?: HitBytesReader | undefined;
}

/** `hits` with the paging's reader, if it has one. */
export function withReader(hits: HitArray, reader: HitBytesReader | undefined): HitArray {
  return reader === undefined ? hits : { ...hits, reader };
}
