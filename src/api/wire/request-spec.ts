// How an operation's request rules are declared: a zod object for the field types (strict on v3) and
// a rules function for what spans fields; `validateBody` runs both and returns every problem at once.
import type { z } from "zod";
import type { Body, WireProblem } from "./common.js";

export interface RequestSpec<Shape extends z.ZodObject = z.ZodObject> {
  /** Field types only: every field optional, unknown fields rejected on v3. */
  base: Shape;
  /** Cross-field rules (required fields for initial vs paging requests, scope, wildcard, time order). */
  rules: (body: Body, problems: WireProblem[]) => void;
}

export function defineRequest<Shape extends z.ZodObject>(
  base: Shape,
  rules: (body: Body, problems: WireProblem[]) => void,
): RequestSpec<Shape> {
  return { base, rules };
}

/** The value at `path` in parsed JSON, or undefined where the path leaves its objects and arrays. */
export function valueAt(body: unknown, path: readonly PropertyKey[]): unknown {
  let current: unknown = body;
  for (const key of path) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

/** Turns zod issues into problems that name the field, the value and what is allowed. */
function issuesToProblems(body: unknown, issues: readonly z.core.$ZodIssue[]): WireProblem[] {
  const problems: WireProblem[] = [];
  for (const issue of issues) {
    const path = issue.path.map(String);
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) {
        const field = [...path, key].join(".");
        problems.push({
          field,
          value: valueAt(body, [...issue.path, key]),
          message:
            path.length === 0 ? "is not a known field of this operation" : "is not an allowed key here",
        });
      }
      continue;
    }
    problems.push({
      field: path.join(".") || "(body)",
      value: valueAt(body, issue.path),
      message: issue.message,
    });
  }
  return problems;
}

/**
 * Validates a request body against a spec. An absent body counts as `{}` (valid for the mappings
 * operations that take none); anything but an object is one problem.
 */
export function validateBody(spec: RequestSpec, body: unknown): WireProblem[] {
  const value = body === undefined || body === null ? {} : body;
  if (typeof value !== "object" || Array.isArray(value)) {
    return [{ field: "(body)", value: body, message: "must be a JSON object" }];
  }
  const parsed = spec.base.safeParse(value);
  const problems = parsed.success ? [] : issuesToProblems(value, parsed.error.issues);
  const ruleProblems: WireProblem[] = [];
  spec.rules(value as Body, ruleProblems);
  const seen = new Set(problems.map((p) => p.field));
  for (const problem of ruleProblems) if (!seen.has(problem.field)) problems.push(problem);
  return problems;
}
