// Request bodies the v3 kinds (jobs, tickets, metrics) share: the initial query of a slice and the
// aggs request. v3 takes every app type in one array and is strict about unknown fields.
import { DOMAIN_APP_TYPES } from "../api/wire/common.js";
import type { Slice } from "../core/contracts.js";
import type { AggregationRequest } from "./data-kind.js";
import { appTypesFor, oneOf, queryOptions, timeBounds, wireAggs, wireFilters } from "./source-spec.js";
import type { SourceSpec } from "./source-spec.js";

function v3Scope<const A extends string>(operation: string, applications: readonly A[], source: SourceSpec) {
  return {
    application: oneOf(operation, "application", applications, source.application),
    app_type: appTypesFor(operation, DOMAIN_APP_TYPES, source),
    domain: source.domain ?? ["*"],
  };
}

/** The initial body of a v3 query for one slice. */
export function v3QueryBody<const A extends string>(
  operation: string,
  applications: readonly A[],
  source: SourceSpec,
  slice: Pick<Slice, "start" | "end">,
) {
  return {
    ...v3Scope(operation, applications, source),
    ...timeBounds(slice),
    size: source.page_size,
    includes_eu: source.includes_eu,
    ...queryOptions(operation, source),
  };
}

/** The body of a v3 aggs request (filters are a documented field there). */
export function v3AggsBody<const A extends string>(
  operation: string,
  applications: readonly A[],
  source: SourceSpec,
  request: AggregationRequest,
) {
  const filters = wireFilters(operation, source);
  return {
    ...v3Scope(operation, applications, source),
    ...request.bounds,
    aggs: wireAggs(operation, request.aggs),
    includes_eu: source.includes_eu,
    ...(filters !== undefined ? { filters } : {}),
  };
}
