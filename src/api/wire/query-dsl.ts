// The query-DSL objects accepted in `filters` (v2, v3) and inside filter aggregations: term, terms,
// range, exists, bool, match, match_phrase. Shapes follow the search engine's own syntax.
import { z } from "zod";

export type DslValue = string | number | boolean;

export interface RangeBounds {
  gt?: DslValue;
  gte?: DslValue;
  lt?: DslValue;
  lte?: DslValue;
  format?: string;
}

export interface BoolQuery {
  must?: DslQuery | DslQuery[];
  should?: DslQuery | DslQuery[];
  must_not?: DslQuery | DslQuery[];
  filter?: DslQuery | DslQuery[];
  minimum_should_match?: number | string;
}

/** One query clause; exactly one key names its kind. */
export type DslQuery =
  | { term: Record<string, DslValue | { value: DslValue }> }
  | { terms: Record<string, DslValue[]> }
  | { range: Record<string, RangeBounds> }
  | { exists: { field: string } }
  | { bool: BoolQuery }
  | { match: Record<string, DslValue | { query: DslValue; operator?: "and" | "or" }> }
  | { match_phrase: Record<string, DslValue | { query: DslValue }> }
  | { match_all: Record<string, never> };

const DSL_KINDS = ["term", "terms", "range", "exists", "bool", "match", "match_phrase", "match_all"];

const valueSchema = z.union([z.string(), z.number(), z.boolean()], {
  error: "must be a string, number or boolean",
});

/** Field-keyed clause body: exactly one field. */
function singleField<T extends z.ZodType>(inner: T) {
  return z
    .record(z.string(), inner)
    .refine((value) => Object.keys(value).length === 1, { error: "must name exactly one field" });
}

const rangeBoundsSchema = z.strictObject(
  {
    gt: valueSchema.optional(),
    gte: valueSchema.optional(),
    lt: valueSchema.optional(),
    lte: valueSchema.optional(),
    format: z.string().optional(),
  },
  { error: "must be an object with gt, gte, lt or lte" },
);

export const dslQuerySchema: z.ZodType<DslQuery> = z.lazy(() => {
  const clauses = z.union([dslQuerySchema, z.array(dslQuerySchema)]);
  return z.union(
    [
      z.strictObject({ term: singleField(z.union([valueSchema, z.strictObject({ value: valueSchema })])) }),
      z.strictObject({ terms: singleField(z.array(valueSchema)) }),
      z.strictObject({ range: singleField(rangeBoundsSchema) }),
      z.strictObject({ exists: z.strictObject({ field: z.string() }) }),
      z.strictObject({
        bool: z.strictObject({
          must: clauses.optional(),
          should: clauses.optional(),
          must_not: clauses.optional(),
          filter: clauses.optional(),
          minimum_should_match: z.union([z.number(), z.string()]).optional(),
        }),
      }),
      z.strictObject({
        match: singleField(
          z.union([
            valueSchema,
            z.strictObject({ query: valueSchema, operator: z.enum(["and", "or"]).optional() }),
          ]),
        ),
      }),
      z.strictObject({
        match_phrase: singleField(z.union([valueSchema, z.strictObject({ query: valueSchema })])),
      }),
      z.strictObject({ match_all: z.strictObject({}) }),
    ],
    { error: `must be a query object with one of ${DSL_KINDS.join(", ")}` },
  );
});
