// The pipeline's `source` section as the exporter runs it (validated and normalised by config/), and
// the request parts every data kind builds the same way: scope, time bounds, filters, projection, and
// the wire-typed values (application, app_type, filters, aggs) checked against what an operation takes.
import type { Aggregations } from "../api/wire/aggs.js";
import { aggsSchema, filtersSchema } from "../api/wire/common.js";
import type { DataKind } from "../api/wire/fields.js";
import type { DslQuery } from "../api/wire/query-dsl.js";
import { RequestValidationError } from "../errors.js";
import type { Row, RowJson, RowsBatch, Slice } from "../core/contracts.js";
import { UniqueKeys } from "../decoding/json-keys.js";
import { rowJson } from "./row-json.js";
import type { HitLike } from "./row-json.js";

export const APPLICATIONS = ["atr", "klewer", "eventops", "quasar"] as const;
export type Application = (typeof APPLICATIONS)[number];

export const APP_TYPES = ["ec2", "caas", "kubernetes", "serverless"] as const;
export type AppType = (typeof APP_TYPES)[number];

export const STRATEGIES = ["auto", "scroll", "pit", "batch", "aggs"] as const;
export type Strategy = (typeof STRATEGIES)[number];

/** The API version a source is exported through (logs may choose the deprecated v1). */
export type ApiVersion = "v1" | "v2" | "v3";

/**
 * The `source` section after validation: `app_type` is always a list (one request set per entry for
 * v2), defaults are filled in. config/ produces it; kinds, the planner and the sources read it.
 */
export interface SourceSpec {
  kind: DataKind;
  api: ApiVersion;
  application?: Application | undefined;
  app_type: AppType[];
  domain?: string[] | undefined;
  log_group?: string[] | undefined;
  tenant?: string[] | undefined;
  stage?: string[] | undefined;
  window: { expression: { start: string; end: string; slice?: string } };
  strategy: Strategy;
  page_size: number;
  filters: readonly object[];
  fields?: string[] | undefined;
  aggs?: Record<string, Record<string, unknown>> | undefined;
  includes_eu: boolean;
}

/**
 * The `source` section as written, before defaults and normalisation: what a kind's own rules
 * (`checkSource`, `scope`) read. Kinds own this shape and config/'s schema is checked to produce it,
 * so a kind never depends on the schema that lists the kinds.
 */
export interface SourceSection extends Omit<
  SourceSpec,
  "api" | "app_type" | "page_size" | "filters" | "includes_eu"
> {
  api?: "v1" | "v2" | undefined;
  app_type?: AppType | AppType[] | undefined;
  page_size?: number | undefined;
  filters?: readonly object[] | undefined;
  includes_eu?: boolean | undefined;
}

/** `app_type` as written (one, a list, or none) as the list the exporter runs. */
export function appTypeList(appType: AppType | AppType[] | undefined): AppType[] {
  if (appType === undefined) return [];
  return typeof appType === "string" ? [appType] : appType;
}

/**
 * `value` as one of the values an operation accepts. config/ checked the source against the same
 * rules, so a miss here is a bug or a hand-built source; it fails before anything is sent.
 * @example const application = oneOf("/v2/workloads/scroll", "application", ["atr"], source.application);
 */
export function oneOf<const T extends string>(
  operation: string,
  field: string,
  allowed: readonly T[],
  value: string | undefined,
): T {
  const found = allowed.find((candidate) => candidate === value);
  if (found === undefined) {
    throw new RequestValidationError(
      operation,
      field,
      `${JSON.stringify(value)} is not one of ${allowed.join(", ")}`,
    );
  }
  return found;
}

/** The source's app types as a v3 array (`ec2`, `kubernetes`) takes them. */
export function appTypesFor<const T extends string>(
  operation: string,
  allowed: readonly T[],
  source: SourceSpec,
): T[] {
  return source.app_type.map((appType) => oneOf(operation, "app_type", allowed, appType));
}

/** `filters` in the wire's query-DSL type; undefined when the pipeline sets none. */
export function wireFilters(operation: string, source: SourceSpec): DslQuery[] | undefined {
  if (source.filters.length === 0) return undefined;
  const parsed = filtersSchema.safeParse(source.filters);
  if (!parsed.success) throw new RequestValidationError(operation, "filters", parsed.error.message);
  return parsed.data;
}

/** An aggregation definition in the wire's type. */
export function wireAggs(operation: string, aggs: Readonly<Record<string, unknown>>): Aggregations {
  const parsed = aggsSchema.safeParse(aggs);
  if (!parsed.success) throw new RequestValidationError(operation, "aggs", parsed.error.message);
  return parsed.data;
}

/** `domain`, or `log_group`/`tenant`/`stage` for serverless logs, as the v2 and v3 bodies take them. */
export function scopeOf(source: SourceSpec) {
  if (source.log_group !== undefined || source.tenant !== undefined || source.stage !== undefined) {
    return {
      log_group: source.log_group ?? ["*"],
      tenant: source.tenant ?? ["*"],
      stage: source.stage ?? ["*"],
    };
  }
  return { domain: source.domain ?? ["*"] };
}

export function timeBounds(slice: Pick<Slice, "start" | "end">): { start_time: string; end_time: string } {
  return { start_time: slice.start.toISOString(), end_time: slice.end.toISOString() };
}

/** `filters` and `fields` when the pipeline sets them (an empty list of filters is left out). */
export function queryOptions(
  operation: string,
  source: SourceSpec,
): { filters?: DslQuery[]; fields?: string[] } {
  const filters = wireFilters(operation, source);
  return {
    ...(filters !== undefined ? { filters } : {}),
    ...(source.fields !== undefined ? { fields: source.fields } : {}),
  };
}

/**
 * A record as it enters the transforms: the hit's `_source` with `_id` and `_index` kept beside it.
 * The hit's own `_id` and `_index` win over fields of those names in `_source`: they are the record's
 * identity, which de-duplication and the count check rely on (a mapped field of that name is refused
 * by the sinks' column check).
 */
export function hitToRow(hit: HitLike): Row {
  const row = { _id: hit._id, _index: hit._index, ...hit._source };
  if (row._id !== hit._id || row._index !== hit._index) {
    row._id = hit._id;
    row._index = hit._index;
  }
  return row;
}

/**
 * The row of a hit when no sink writes rows as JSON text (SliceContext.records asks for rows without
 * JSON): the parsed `_source` itself, with the hit's `_id` and `_index` set on it over any of those names, so no second
 * object is made per record. Its keys come in another order than hitToRow's (`_id` and `_index` last),
 * which only JSON text would show; a `__proto__` of the record stays the plain own field JSON.parse
 * made. It changes `_source`, so the hit must be one parsed for this row alone.
 */
export function hitAsRow(hit: HitLike): Row {
  const row = hit._source as Record<string, unknown>;
  row._id = hit._id;
  row._index = hit._index;
  return row;
}

/**
 * The rows of parsed hits. With `withJson` (a sink writes rows as JSON text) each row is a new object in
 * `JSON.stringify` order and, given the hits' verbatim `_source` bytes, carries its JSON (see RowsBatch);
 * without it each row is the hit's parsed `_source` (hitAsRow) and no JSON is built.
 */
export function hitsToRows(
  hits: readonly HitLike[],
  sources?: readonly (Uint8Array | undefined)[],
  withJson = true,
): RowsBatch {
  const rows = new Array<Row>(hits.length);
  if (!withJson) {
    for (let index = 0; index < hits.length; index++) rows[index] = hitAsRow(hits[index] as HitLike);
    return { kind: "rows", rows };
  }
  for (let index = 0; index < hits.length; index++) rows[index] = hitToRow(hits[index] as HitLike);
  if (sources === undefined) return { kind: "rows", rows };
  const json = new Array<RowJson | undefined>(hits.length);
  const keys = new UniqueKeys();
  for (let index = 0; index < hits.length; index++)
    json[index] = rowJson(hits[index] as HitLike, sources[index], keys);
  return { kind: "rows", rows, json };
}
