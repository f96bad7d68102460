// The conditions of `filter`: comparisons on one field, combined with all / any / not, compiled once
// into a predicate so that rows are tested without re-reading the config.
import { RE2JS } from "re2js";
import { z } from "zod";
import { errorMessage } from "../errors.js";
import { fieldPathSchema } from "./field-schema.js";
import { readField } from "./field-path.js";
import { isoTextMillis } from "../decoding/iso-text.js";

type Scalar = string | number | boolean | null;

interface Condition {
  field?: string | undefined;
  equals?: Scalar | undefined;
  not_equals?: Scalar | undefined;
  in?: Scalar[] | undefined;
  exists?: boolean | undefined;
  gt?: string | number | undefined;
  gte?: string | number | undefined;
  lt?: string | number | undefined;
  lte?: string | number | undefined;
  matches?: string | undefined;
  all?: Condition[] | undefined;
  any?: Condition[] | undefined;
  not?: Condition | undefined;
}

const COMPARISONS = ["equals", "not_equals", "in", "exists", "gt", "gte", "lt", "lte", "matches"] as const;
const COMBINATORS = ["all", "any", "not"] as const;

const scalar = z.union([z.string(), z.number(), z.boolean(), z.null()]);
const bound = z.union([z.string(), z.number()]);

export const conditionSchema: z.ZodType<Condition> = z
  .strictObject({
    field: fieldPathSchema.optional().describe("The field compared; required with a comparison."),
    equals: scalar.optional().describe("Keeps rows whose value is exactly this (no type conversion)."),
    not_equals: scalar
      .optional()
      .describe("Keeps rows whose value is not this, including rows without the field."),
    in: z.array(scalar).min(1).optional().describe("Keeps rows whose value is one of these."),
    exists: z
      .boolean()
      .optional()
      .describe("true: the field is present and not null; false: it is absent or null."),
    gt: bound.optional().describe("Greater than: numbers compare as numbers, ISO timestamps as instants."),
    gte: bound.optional().describe("Greater than or equal."),
    lt: bound.optional().describe("Less than."),
    lte: bound.optional().describe("Less than or equal."),
    matches: z
      .string()
      .superRefine((source, ctx) => {
        const problem = regExpProblem(source);
        if (problem !== undefined)
          ctx.addIssue({
            code: "custom",
            message: `${JSON.stringify(source)} is not a regular expression mdq-export can run in linear time (${problem}); use RE2 syntax: no lookaround, no backreferences`,
          });
      })
      .optional()
      .describe(
        "A regular expression in RE2 syntax (JavaScript's without lookaround or backreferences) the (string) value must match somewhere; matched in linear time.",
      ),
    get all() {
      return z.array(conditionSchema).min(1).optional().describe("Every condition holds.");
    },
    get any() {
      return z.array(conditionSchema).min(1).optional().describe("At least one condition holds.");
    },
    get not() {
      return conditionSchema.optional().describe("The condition does not hold.");
    },
  })
  .superRefine((condition, ctx) => {
    const comparisons = COMPARISONS.filter((key) => condition[key] !== undefined);
    const combinators = COMBINATORS.filter((key) => condition[key] !== undefined);
    if (condition.field !== undefined && comparisons.length === 0) {
      ctx.addIssue({ code: "custom", message: `field needs a comparison: one of ${COMPARISONS.join(", ")}` });
    } else if (condition.field === undefined && comparisons.length > 0) {
      ctx.addIssue({ code: "custom", message: `${comparisons.join(", ")} needs a field` });
    } else if (condition.field !== undefined && combinators.length > 0) {
      ctx.addIssue({ code: "custom", message: "a comparison and all / any / not go in separate conditions" });
    } else if (condition.field === undefined && combinators.length !== 1) {
      ctx.addIssue({
        code: "custom",
        message: "give a field with a comparison, or exactly one of all, any, not",
      });
    }
  })
  .describe("A condition: { field, <comparison> } or { all: [...] }, { any: [...] }, { not: {...} }.")
  .meta({ id: "condition" });

/**
 * Why RE2 refuses `source`, or undefined. RE2 matches in time linear in the value: a backtracking
 * engine takes days on `^(a+)+$` against 40 characters, and a pipeline's pattern meets service data.
 */
function regExpProblem(source: string): string | undefined {
  try {
    RE2JS.compile(source);
    return undefined;
  } catch (error) {
    return errorMessage(error);
  }
}

type Predicate = (row: Readonly<Record<string, unknown>>) => boolean;

/** Compiles a validated condition; all comparisons given on one field must hold. */
export function compileCondition(condition: Condition): Predicate {
  if (condition.all !== undefined) {
    const parts = condition.all.map(compileCondition);
    return (row) => parts.every((part) => part(row));
  }
  if (condition.any !== undefined) {
    const parts = condition.any.map(compileCondition);
    return (row) => parts.some((part) => part(row));
  }
  if (condition.not !== undefined) {
    const inner = compileCondition(condition.not);
    return (row) => !inner(row);
  }
  const field = condition.field ?? "";
  const tests = fieldTests(condition);
  return (row) => {
    const found = readField(row, field);
    return tests.every((test) => test(found.found, found.found ? found.value : undefined));
  };
}

type FieldTest = (present: boolean, value: unknown) => boolean;

function fieldTests(c: Condition): FieldTest[] {
  const tests: FieldTest[] = [];
  if (c.equals !== undefined) tests.push((present, value) => present && value === c.equals);
  if (c.not_equals !== undefined) tests.push((present, value) => !present || value !== c.not_equals);
  if (c.in !== undefined) {
    const allowed = new Set<unknown>(c.in);
    tests.push((present, value) => present && allowed.has(value));
  }
  if (c.exists !== undefined) {
    const wanted = c.exists;
    tests.push((present, value) => (present && value !== null && value !== undefined) === wanted);
  }
  for (const [op, accept] of [
    ["gt", (d: number) => d > 0],
    ["gte", (d: number) => d >= 0],
    ["lt", (d: number) => d < 0],
    ["lte", (d: number) => d <= 0],
  ] as const) {
    const limit = c[op];
    if (limit !== undefined) tests.push((present, value) => present && compare(value, limit, accept));
  }
  if (c.matches !== undefined) {
    const pattern = RE2JS.compile(c.matches);
    tests.push(
      (present, value) =>
        present && (typeof value === "string" || typeof value === "number") && pattern.test(String(value)),
    );
  }
  return tests;
}

const ISO_PREFIX = /^\d{4}-\d{2}-\d{2}/;

/** Numbers as numbers, ISO timestamps as instants, other strings by code points; mismatches fail. */
function compare(value: unknown, limit: string | number, accept: (difference: number) => boolean): boolean {
  if (typeof limit === "number") {
    const number =
      typeof value === "number"
        ? value
        : typeof value === "string" && value.trim() !== ""
          ? Number(value)
          : NaN;
    return !Number.isNaN(number) && accept(number - limit);
  }
  if (typeof value !== "string") return false;
  if (ISO_PREFIX.test(limit) && ISO_PREFIX.test(value)) {
    // Text without an offset is UTC, as every sink reads it; Date.parse would take the process's zone.
    const a = isoTextMillis(value);
    const b = isoTextMillis(limit);
    if (!Number.isNaN(a) && !Number.isNaN(b)) return accept(a - b);
  }
  return accept(value < limit ? -1 : value > limit ? 1 : 0);
}

/** Every field a condition refers to, with its path inside the condition (for column checks). */
export function conditionFields(condition: Condition, path = ""): { field: string; path: string }[] {
  const at = (key: string) => (path === "" ? key : `${path}.${key}`);
  const fields = condition.field !== undefined ? [{ field: condition.field, path: at("field") }] : [];
  for (const key of ["all", "any"] as const) {
    condition[key]?.forEach((inner, index) => fields.push(...conditionFields(inner, at(`${key}.${index}`))));
  }
  if (condition.not !== undefined) fields.push(...conditionFields(condition.not, at("not")));
  return fields;
}
