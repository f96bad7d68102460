// The hits arrays of the service's paged operations: where each keeps its hits and what one hit must
// look like (the wire's hit schemas, with a plain pre-check that accepts only what they accept). The
// v2 and v3 shapes are shared constants; a kind of either shape names its array.
import type { HitArray } from "../decoding/hit-array.js";
import { isJsonObject } from "../core/json-object.js";
import { hitSchema, v3HitSchema } from "./wire/hits.js";

type HitFields = Partial<Record<"_index" | "_id" | "_score" | "_source" | "sort", unknown>>;

function isHit(hit: unknown): hit is HitFields {
  if (typeof hit !== "object" || hit === null) return false;
  const { _index: index, _id: id, _source: source } = hit as HitFields;
  return typeof index === "string" && typeof id === "string" && isJsonObject(source);
}

const isSortValue = (value: unknown): boolean =>
  value === null || typeof value === "string" || (typeof value === "number" && Number.isFinite(value));

const isScore = (score: unknown): boolean =>
  score === null || (typeof score === "number" && Number.isFinite(score));

/** hitSchema: `_score` a number, null or absent. */
function acceptsHit(hit: unknown): boolean {
  return isHit(hit) && (hit._score === undefined || isScore(hit._score));
}

/** v3HitSchema: `_score` a number or null, `sort` an array of strings, numbers and nulls. */
function acceptsV3Hit(hit: unknown): boolean {
  return isHit(hit) && isScore(hit._score) && Array.isArray(hit.sort) && hit.sort.every(isSortValue);
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
