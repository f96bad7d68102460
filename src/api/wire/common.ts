// Building blocks of the wire schemas: field types the spec shares across operations, the problem
// record every validation returns, and the cross-field rules (required fields, scope, wildcard, time).
import { z } from "zod";
import { dslQuerySchema } from "./query-dsl.js";
import { aggsSchema } from "./aggs.js";

/** One thing wrong with a request body: which field, the value sent, and what is allowed. */
export interface WireProblem {
  /** Dotted path in the body (`domain`, `filters.0.range`); `(body)` for the body itself. */
  field: string;
  /** The offending value as sent (undefined when missing). */
  value: unknown;
  /** Says what is allowed: `is not one of ec2, kubernetes`, `is required`. */
  message: string;
}

/** One line per problem, for error messages: `app_type: "caas" is not one of ec2, kubernetes`. */
export function formatProblem(problem: WireProblem): string {
  const shown = problem.value === undefined ? "" : `${JSON.stringify(problem.value)?.slice(0, 80)} `;
  return `${problem.field}: ${shown}${problem.message}`;
}

/** ISO 8601 UTC timestamp with or without fractional seconds, `Z` suffix. */
const TIMESTAMP_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?Z$/;

export const timestampSchema = z
  .string()
  .regex(TIMESTAMP_PATTERN, { error: "is not an ISO 8601 timestamp such as 2026-01-31T00:00:00Z" })
  .refine((value) => !Number.isNaN(Date.parse(value)), { error: "is not a valid date" });

/** v1 date-math: now-<n><unit>/<unit>. */
const TIME_RANGE_PATTERN = /^now-(\d+)([yMwdhHms])\/([yMwdhHms])$/;

export const timeRangeSchema = z
  .string()
  .regex(TIME_RANGE_PATTERN, { error: "is not a date-math expression of the form now-<n><unit>/<unit>" });

/** A scope list: names, or the single wildcard `*`. Emptiness and the wildcard rule are rules, below. */
export const scopeListSchema = z.array(z.string({ error: "must be a string" }), {
  error: "must be an array of strings",
});

export const positiveIntSchema = z
  .number({ error: "must be an integer greater than 0" })
  .int({ error: "must be an integer greater than 0" })
  .gt(0, { error: "must be an integer greater than 0" });

/** v3 query `size`: default 100, maximum 10000. */
export const V3_DEFAULT_SIZE = 100;
export const V3_MAX_SIZE = 10_000;
export const v3SizeSchema = positiveIntSchema.max(V3_MAX_SIZE, {
  error: `must be at most ${V3_MAX_SIZE}`,
});

export const filtersSchema = z.array(dslQuerySchema, { error: "must be an array of query-DSL objects" });
export const fieldsSchema = z.array(z.string({ error: "must be a string" }), {
  error: "must be an array of field names",
});
export { aggsSchema };
export const v1FiltersSchema = z.record(z.string(), z.unknown(), {
  error: "must be an object of key-value pairs",
});
export const tokenSchema = z.string({ error: "must be a string" });

export const LOG_APPLICATIONS = ["atr", "klewer", "eventops", "quasar"] as const;
export const METRIC_APPLICATIONS = ["atr", "klewer", "quasar"] as const;
export const ATR_ONLY = ["atr"] as const;
export const LOG_MAPPING_APPLICATIONS = ["atr", "klewer", "eventops", "quasar", "agentmanager"] as const;
export const V1_APP_TYPES = ["ec2", "caas"] as const;
export const V2_LOG_APP_TYPES = ["ec2", "kubernetes", "serverless"] as const;
export const DOMAIN_APP_TYPES = ["ec2", "kubernetes"] as const;

export function enumSchema<const T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values, { error: `is not one of ${values.join(", ")}` });
}

export const v3AppTypeSchema = z.array(enumSchema(DOMAIN_APP_TYPES), {
  error: "must be an array of ec2 or kubernetes",
});

export type Body = Record<string, unknown>;

/** Adds a problem for each field in `names` that is missing (undefined or null). */
export function requireFields(body: Body, names: readonly string[], problems: WireProblem[]): void {
  for (const name of names) {
    if (body[name] === undefined || body[name] === null) {
      problems.push({ field: name, value: undefined, message: "is required" });
    }
  }
}

/** Not empty; the wildcard `*` only alone. Checks only lists that are present and are arrays. */
export function checkScopeList(body: Body, name: string, problems: WireProblem[]): void {
  const value = body[name];
  if (!Array.isArray(value)) return;
  if (value.length === 0) {
    problems.push({ field: name, value, message: "must not be empty: list names, or the single wildcard *" });
  } else if (value.length > 1 && value.includes("*")) {
    problems.push({
      field: name,
      value,
      message: "mixes the wildcard * with other values; * must be the only element",
    });
  }
}

/** `end_time` after `start_time`, when both are valid timestamps. */
export function checkTimeOrder(body: Body, problems: WireProblem[]): void {
  const start = body["start_time"];
  const end = body["end_time"];
  if (typeof start !== "string" || typeof end !== "string") return;
  if (!TIMESTAMP_PATTERN.test(start) || !TIMESTAMP_PATTERN.test(end)) return;
  if (Date.parse(end) <= Date.parse(start)) {
    problems.push({ field: "end_time", value: end, message: `must be after start_time (${start})` });
  }
}

/** Rejects fields an operation does not take even though the family ignores unknown fields. */
export function forbidFields(body: Body, names: readonly string[], problems: WireProblem[]): void {
  for (const name of names) {
    if (body[name] !== undefined) {
      problems.push({ field: name, value: body[name], message: "is not accepted by this operation" });
    }
  }
}

/** Whether a field holds a usable (non-empty after trimming) string. */
export function isPresentString(value: unknown): value is string {
  return typeof value === "string" && value.trim().length > 0;
}
