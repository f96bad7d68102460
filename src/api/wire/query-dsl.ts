// The query-DSL objects accepted in `filters` (v2, v3) and inside filter aggregations: term, terms,
// range, exists, bool, match, match_phrase. Shapes follow the search engine's own syntax.
import { z } from "zod";

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

// The recursion goes through getters, which zod reads only when it parses, so the types below can be
// inferred from the schemas instead of declared beside them.
const boolSchema = z.strictObject({
  get must() {
    return clausesSchema.optional();
  },
  get should() {
    return clausesSchema.optional();
  },
  get must_not() {
    return clausesSchema.optional();
  },
  get filter() {
    return clausesSchema.optional();
  },
  minimum_should_match: z.union([z.number(), z.string()]).optional(),
});

/** One query clause; exactly one key names its kind. */
export const dslQuerySchema = z.union(
  [
    z.strictObject({ term: singleField(z.union([valueSchema, z.strictObject({ value: valueSchema })])) }),
    z.strictObject({ terms: singleField(z.array(valueSchema)) }),
    z.strictObject({ range: singleField(rangeBoundsSchema) }),
    z.strictObject({ exists: z.strictObject({ field: z.string() }) }),
    z.strictObject({ bool: boolSchema }),
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

const clausesSchema = z.union([dslQuerySchema, z.array(dslQuerySchema)]);

export type DslQuery = z.infer<typeof dslQuerySchema>;
export type RangeBounds = z.infer<typeof rangeBoundsSchema>;
