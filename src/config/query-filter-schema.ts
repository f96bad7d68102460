// The query-DSL filters a source may send (`filters`): term, terms, range, exists, bool, match and
// match_phrase, the kinds the spec lists, checked offline so the service never sees a malformed one.
import { z } from "zod";
import { requireExactlyOne, requireSingleKey } from "./strict-keys.js";
import { wholeNumber } from "../core/whole-number.js";

const scalar = z.union([z.string(), z.number(), z.boolean()]);

const FILTER_KINDS = ["term", "terms", "range", "exists", "bool", "match", "match_phrase"] as const;

const single = <T extends z.ZodType>(value: T, what: string) =>
  z.record(z.string().min(1), value).superRefine((record, ctx) => requireSingleKey(record, what, ctx));

const rangeBounds = z
  .strictObject({
    gt: scalar.optional(),
    gte: scalar.optional(),
    lt: scalar.optional(),
    lte: scalar.optional(),
    format: z.string().optional(),
  })
  .superRefine((bounds, ctx) => {
    if (
      bounds.gt === undefined &&
      bounds.gte === undefined &&
      bounds.lt === undefined &&
      bounds.lte === undefined
    ) {
      ctx.addIssue({ code: "custom", message: "a range needs at least one of gt, gte, lt, lte" });
    }
  });

export const queryFilterSchema = z
  .strictObject({
    term: single(z.union([scalar, z.strictObject({ value: scalar })]), "term")
      .optional()
      .describe("Exact value of a keyword field: { term: { job.state: FAILED } }."),
    terms: single(z.array(scalar).min(1), "terms")
      .optional()
      .describe("One of several values: { terms: { ticket.type: [INCIDENT, SR_TASK] } }."),
    range: single(rangeBounds, "range")
      .optional()
      .describe("Bounds on a date or number: { range: { job.execution_time.elapsed: { gte: 60 } } }."),
    exists: z
      .strictObject({ field: z.string().min(1) })
      .optional()
      .describe("The field is present: { exists: { field: user.id } }."),
    get bool(): z.ZodOptional<z.ZodType<BoolClauses>> {
      return z
        .strictObject({
          must: z.array(queryFilterSchema).optional().describe("Every clause matches."),
          should: z.array(queryFilterSchema).optional().describe("At least one clause matches."),
          must_not: z.array(queryFilterSchema).optional().describe("No clause matches."),
          minimum_should_match: wholeNumber(1).optional().describe("How many should clauses must match."),
        })
        .superRefine((clauses, ctx) => {
          if (clauses.must === undefined && clauses.should === undefined && clauses.must_not === undefined) {
            ctx.addIssue({ code: "custom", message: "bool needs at least one of must, should, must_not" });
          }
        })
        .optional()
        .describe("Combines filters with must, should, must_not.");
    },
    match: single(
      z.union([scalar, z.strictObject({ query: scalar, operator: z.enum(["and", "or"]).optional() })]),
      "match",
    )
      .optional()
      .describe("Full-text match on a text field: { match: { message: timeout } }."),
    match_phrase: single(
      z.union([z.string(), z.strictObject({ query: z.string(), slop: wholeNumber(0).optional() })]),
      "match_phrase",
    )
      .optional()
      .describe("Phrase match on a text field."),
  })
  .superRefine((filter, ctx) => requireExactlyOne(filter, FILTER_KINDS, "filter", ctx))
  .describe(
    "One query-DSL filter object with exactly one kind: term, terms, range, exists, bool, match, match_phrase.",
  )
  .meta({ id: "query_filter" });

export type QueryFilter = z.output<typeof queryFilterSchema>;

interface BoolClauses {
  must?: QueryFilter[] | undefined;
  should?: QueryFilter[] | undefined;
  must_not?: QueryFilter[] | undefined;
  minimum_should_match?: number | undefined;
}

/** Every field a filter names, with the path to where it is named (for offline field checks). */
export function filterFields(
  filter: QueryFilter,
  path: (string | number)[],
): { field: string; path: (string | number)[] }[] {
  const found: { field: string; path: (string | number)[] }[] = [];
  for (const kind of ["term", "terms", "range", "match", "match_phrase"] as const) {
    for (const field of Object.keys(filter[kind] ?? {})) found.push({ field, path: [...path, kind, field] });
  }
  if (filter.exists !== undefined)
    found.push({ field: filter.exists.field, path: [...path, "exists", "field"] });
  for (const clause of ["must", "should", "must_not"] as const) {
    filter.bool?.[clause]?.forEach((inner, index) =>
      found.push(...filterFields(inner, [...path, "bool", clause, index])),
    );
  }
  return found;
}
