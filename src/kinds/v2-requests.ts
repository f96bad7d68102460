// Request bodies the v2 kinds (logs, workloads) share: the common fields of scroll, batch and aggs for
// one app type, and the aggs route for filters. The spec shows no `filters` on the v2 aggs
// operations, so a filtered aggregation is sent as the spec's own route: one `filter` aggregation
// wrapping the user's `aggs`, unwrapped again before the rows are made.
import type { Aggregations } from "../api/wire/aggs.js";
import type { Slice } from "../core/contracts.js";
import type { AggregationRequest } from "./data-kind.js";
import { oneOf, queryOptions, scopeOf, timeBounds, wireAggs, wireFilters } from "./source-spec.js";
import type { SourceSpec } from "./source-spec.js";

/** The aggregation that carries the pipeline's filters around its `aggs`. */
const FILTERED = "filtered";

/** The fields every v2 initial request of one app type carries. */
export function v2Base<const A extends string, const T extends string>(
  operation: string,
  allowed: Allowed<A, T>,
  source: SourceSpec,
  appType: string | undefined,
  bounds: { start_time: string; end_time: string },
) {
  return {
    application: oneOf(operation, "application", allowed.applications, source.application),
    app_type: oneOf(operation, "app_type", allowed.appTypes, appType),
    ...scopeOf(source),
    ...bounds,
  };
}

type Allowed<A extends string, T extends string> = { applications: readonly A[]; appTypes: readonly T[] };

/** A v2 query of one app type over a slice: a batch export's create body, a scroll's with `size`. */
export function v2QueryBody<const A extends string, const T extends string>(
  operation: string,
  allowed: Allowed<A, T>,
  source: SourceSpec,
  appType: string,
  slice: Pick<Slice, "start" | "end">,
) {
  return {
    ...v2Base(operation, allowed, source, appType, timeBounds(slice)),
    ...queryOptions(operation, source),
  };
}

/** The `aggs` of a v2 aggs request, and how to read the user's aggregations back from its answer. */
export function v2Aggs(
  operation: string,
  source: SourceSpec,
  request: AggregationRequest,
): { aggs: Aggregations; unwrap(aggregations: unknown): unknown } {
  const aggs = wireAggs(operation, request.aggs);
  const filters = wireFilters(operation, source);
  if (filters === undefined) return { aggs, unwrap: (aggregations) => aggregations };
  return {
    aggs: { [FILTERED]: { filter: { bool: { must: filters } }, aggs } },
    unwrap: (aggregations) =>
      aggregations !== null && typeof aggregations === "object" && FILTERED in aggregations
        ? aggregations[FILTERED]
        : {},
  };
}
