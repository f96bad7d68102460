// Where an operation's response keeps its hits, and what one hit must look like: the paged queries
// differ only in these, so a kind passes its operation's description to the paging and nothing here
// lists operations. The v2 and v3 shapes are shared constants; a kind of either shape names its array.
import type { z } from "zod";
import type { HitBytesReader } from "../../core/hit-reader.js";
import { hitSchema, v3HitSchema } from "../wire/hits.js";

/**
 * The hits array of a paged response: its path from the body's root, the wire schema of one hit and a
 * plain pre-check.
 * @example
 * const hits: HitArray = v2HitArray("logs"); // data.logs of /v2/logs/scroll
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

/** v3 queries (jobs, tickets, metrics): `data.hits`, each hit with its sort values. */
export const V3_HITS: HitArray = {
  path: ["data", "hits"],
  schema: v3HitSchema,
  accepts: acceptsV3Hit,
  v3: true,
};

/** v2 scrolls keep their hits under `data.<kind>` (`data.logs`, `data.workloads`). */
export function v2HitArray(kind: string): HitArray {
  return { path: ["data", kind], schema: hitSchema, accepts: acceptsHit, v3: false };
}

/** The deprecated v1 scroll keeps its hits at the top level (`logs`). */
export function v1HitArray(kind: string): HitArray {
  return { path: [kind], schema: hitSchema, accepts: acceptsHit, v3: false };
}
