// The aggregation definitions accepted in `aggs`: terms, date_histogram, filter, and the metric
// aggregations, each optionally with nested `aggs`. At least one aggregation per level.
import { z } from "zod";
import { dslQuerySchema } from "./query-dsl.js";
import type { DslQuery } from "./query-dsl.js";

const METRIC_AGGREGATIONS = ["avg", "min", "max", "sum", "value_count", "cardinality"] as const;
const BUCKET_AGGREGATIONS = ["terms", "date_histogram", "filter"] as const;
const AGGREGATION_KINDS = [...BUCKET_AGGREGATIONS, ...METRIC_AGGREGATIONS];

export interface TermsAggregation {
  field: string;
  size?: number;
  order?: Record<string, "asc" | "desc">;
  min_doc_count?: number;
}

export interface DateHistogramAggregation {
  field: string;
  fixed_interval?: string;
  calendar_interval?: string;
  interval?: string;
  min_doc_count?: number;
  format?: string;
}

/** One named aggregation: exactly one kind key, plus optional sub-aggregations. */
export type Aggregation = {
  terms?: TermsAggregation;
  date_histogram?: DateHistogramAggregation;
  filter?: DslQuery;
  aggs?: Aggregations;
  aggregations?: Aggregations;
} & { [Metric in (typeof METRIC_AGGREGATIONS)[number]]?: { field: string } };

export type Aggregations = Record<string, Aggregation>;

/** Fixed intervals (`30m`, `1h`, `1d`). */
const INTERVAL_PATTERN = /^(\d+)(ms|s|m|h|d)$/;

/** Calendar intervals by name, each also written as one of its unit (`1M`). */
export const CALENDAR_UNITS = {
  minute: "m",
  hour: "h",
  day: "d",
  week: "w",
  month: "M",
  quarter: "q",
  year: "y",
};
const CALENDAR_INTERVALS = Object.entries(CALENDAR_UNITS).flatMap(([name, unit]) => [name, `1${unit}`]);

const fieldOnly = z.looseObject({ field: z.string({ error: "must name a field" }) });

const aggregationSchema: z.ZodType<Aggregation> = z.lazy(() =>
  z
    .strictObject(
      {
        terms: z
          .looseObject({
            field: z.string({ error: "must name a field" }),
            size: z.number().int().positive().optional(),
          })
          .optional(),
        date_histogram: z
          .looseObject({
            field: z.string({ error: "must name a field" }),
            fixed_interval: z
              .string()
              .regex(INTERVAL_PATTERN, { error: "is not an interval such as 1h or 1d" })
              .optional(),
            calendar_interval: z
              .enum(CALENDAR_INTERVALS, { error: `is not one of ${CALENDAR_INTERVALS.join(", ")}` })
              .optional(),
            interval: z.string().optional(),
          })
          .refine(
            (v) =>
              v.fixed_interval !== undefined || v.calendar_interval !== undefined || v.interval !== undefined,
            {
              error: "needs fixed_interval or calendar_interval",
            },
          )
          .optional(),
        filter: dslQuerySchema.optional(),
        avg: fieldOnly.optional(),
        min: fieldOnly.optional(),
        max: fieldOnly.optional(),
        sum: fieldOnly.optional(),
        value_count: fieldOnly.optional(),
        cardinality: fieldOnly.optional(),
        aggs: aggsSchema.optional(),
        aggregations: aggsSchema.optional(),
      },
      { error: `must be an aggregation object (${AGGREGATION_KINDS.join(", ")})` },
    )
    .refine((value) => AGGREGATION_KINDS.filter((kind) => kind in value).length === 1, {
      error: `must hold exactly one of ${AGGREGATION_KINDS.join(", ")}`,
    }),
);

export const aggsSchema: z.ZodType<Aggregations> = z.lazy(() =>
  z
    .record(z.string(), aggregationSchema, { error: "must be an object of named aggregations" })
    .refine((value) => Object.keys(value).length > 0, { error: "must contain at least one aggregation" }),
);
