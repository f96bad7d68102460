// The aggregation source: one aggs request per request set of a slice (the kind sends it), its
// response turned into one row per bucket path with the slice's bounds beside it.
import type { RecordBatch, Column, Source } from "../core/contracts.js";
import type { AggregationRequest } from "./data-kind.js";
import type { AppType } from "./source-spec.js";
import { timeBounds } from "./source-spec.js";
import { aggregationColumns, aggregationRows } from "./aggregation-rows.js";

/** Columns every aggregation row starts with, so rows of different slices stay apart. */
const AGGREGATION_BASE_COLUMNS: readonly Column[] = [
  { name: "slice_start", type: "timestamp" },
  { name: "slice_end", type: "timestamp" },
];

/** v2 kinds aggregate each app_type in its own request; this column keeps their rows apart. */
const APP_TYPE_COLUMN: Column = { name: "app_type", type: "string" };

interface AggregationQuery {
  aggs: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  /** The app type of each request: one per request for v2 kinds, one undefined for v3 kinds. */
  sets: readonly (AppType | undefined)[];
  /** Sends one request and returns its `data.aggregations`. */
  aggregate(request: AggregationRequest): Promise<unknown>;
}

export function aggregationSourceColumns(query: Pick<AggregationQuery, "aggs" | "sets">): Column[] {
  const perAppType = query.sets.some((appType) => appType !== undefined);
  return [
    ...AGGREGATION_BASE_COLUMNS,
    ...(perAppType ? [APP_TYPE_COLUMN] : []),
    ...aggregationColumns(query.aggs),
  ];
}

export function createAggregationSource(query: AggregationQuery): Source {
  return async function* (ctx): AsyncGenerator<RecordBatch> {
    const bounds = timeBounds(ctx.slice);
    for (const appType of query.sets) {
      const aggregations = await query.aggregate({ aggs: query.aggs, bounds, appType, signal: ctx.signal });
      const rows = aggregationRows(query.aggs, aggregations, {
        slice_start: bounds.start_time,
        slice_end: bounds.end_time,
        // Without it the buckets of ec2 and of kubernetes would be rows with the same keys.
        ...(appType !== undefined ? { app_type: appType } : {}),
      });
      if (rows.length > 0) yield { kind: "rows", rows };
    }
  };
}
