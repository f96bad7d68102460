// What a source needs to know of the pipeline's `source` section, and the request fields every
// retrieval style shares (scope, time bounds, filters, projection).
import type { Row, Slice } from "../pipeline/contracts.js";

/** The source section as validated by config/ (structurally; sources do not import config). */
export interface SourceQuery {
  kind: "logs" | "workloads" | "jobs" | "tickets" | "metrics" | "billing";
  api: "v1" | "v2" | "v3";
  application?: string | undefined;
  app_type: string[];
  domain?: string[] | undefined;
  log_group?: string[] | undefined;
  tenant?: string[] | undefined;
  stage?: string[] | undefined;
  window: { expression: { start: string; end: string } };
  page_size: number;
  filters: readonly object[];
  fields?: string[] | undefined;
  aggs?: Record<string, Record<string, unknown>> | undefined;
  includes_eu: boolean;
}

/** `domain`, or `log_group`/`tenant`/`stage` for serverless logs, as the v2 and v3 bodies take them. */
export function scopeOf(query: SourceQuery): Record<string, string[]> {
  if (query.log_group !== undefined || query.tenant !== undefined || query.stage !== undefined) {
    return {
      log_group: query.log_group ?? ["*"],
      tenant: query.tenant ?? ["*"],
      stage: query.stage ?? ["*"],
    };
  }
  return { domain: query.domain ?? ["*"] };
}

export function timeBounds(slice: Slice): { start_time: string; end_time: string } {
  return { start_time: slice.start.toISOString(), end_time: slice.end.toISOString() };
}

/** `filters` and `fields` when the pipeline sets them (an empty list of filters is left out). */
export function queryOptions(query: SourceQuery): { filters?: Record<string, unknown>[]; fields?: string[] } {
  return {
    ...(query.filters.length > 0 ? { filters: query.filters as Record<string, unknown>[] } : {}),
    ...(query.fields !== undefined ? { fields: query.fields } : {}),
  };
}

/** The initial body of a v3 query (jobs, tickets, metrics) for one slice. */
export function v3QueryBody(query: SourceQuery, slice: Slice): Record<string, unknown> {
  return {
    application: query.application ?? "atr",
    app_type: query.app_type,
    domain: query.domain ?? ["*"],
    ...timeBounds(slice),
    size: query.page_size,
    includes_eu: query.includes_eu,
    ...queryOptions(query),
  };
}

interface HitLike {
  _id: string;
  _index: string;
  _source: Readonly<Record<string, unknown>>;
}

/** A record as it enters the transforms: the hit's `_source` with `_id` and `_index` kept beside it. */
export function hitToRow(hit: HitLike): Row {
  return { _id: hit._id, _index: hit._index, ...hit._source };
}

export function hitsToRows(hits: readonly HitLike[]): Row[] {
  const rows = new Array<Row>(hits.length);
  for (let index = 0; index < hits.length; index++) rows[index] = hitToRow(hits[index] as HitLike);
  return rows;
}
