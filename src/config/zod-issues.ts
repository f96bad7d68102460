// Turns zod's issues into messages a pipeline author can act on: what was found, what is allowed,
// and a close match for misspellings (`"scrol" is not one of auto, scroll, pit, batch, aggs`).
import type { z } from "zod";
import { didYouMean } from "../core/close-matches.js";
import type { PathSegment } from "./yaml-source.js";

type Issue = z.core.$ZodIssue;

interface PathIssue {
  path: PathSegment[];
  message: string;
  /** Point at the key rather than its value (unknown keys). */
  atKey: boolean;
}

/** Values at these paths are never echoed (client secrets, salts). */
type IsSecret = (path: readonly PathSegment[]) => boolean;

export function describeIssues(
  issues: readonly Issue[],
  isSecret: IsSecret,
  base: PathSegment[] = [],
): PathIssue[] {
  const described = issues.flatMap((issue) => describeIssue(issue, isSecret, base));
  // "needs one of ..." next to an unknown key at the same place says the same thing twice.
  const unknownAt = new Set(
    described.filter((issue) => issue.atKey).map((issue) => issue.path.slice(0, -1).join("\u0000")),
  );
  return described.filter(
    (issue) => !(issue.message.includes("needs one of") && unknownAt.has(issue.path.join("\u0000"))),
  );
}

function describeIssue(issue: Issue, isSecret: IsSecret, base: PathSegment[]): PathIssue[] {
  const path = [
    ...base,
    ...issue.path.map((segment) => (typeof segment === "symbol" ? String(segment) : segment)),
  ];
  const found = (input: unknown) => (isSecret(path) ? "a value (not shown: secret)" : show(input));
  const at = (message: string): PathIssue[] => [{ path, message, atKey: false }];
  switch (issue.code) {
    case "unrecognized_keys": {
      const allowed = allowedKeys(issue);
      // A transform step's key names the stage: say so, rather than "key".
      const what = path.length === 2 && path[0] === "transforms" ? "transform" : "key";
      const list = what === "transform" ? "Transforms" : "Allowed here";
      return issue.keys.map((key) => ({
        path: [...path, key],
        message: `unknown ${what} "${key}"${didYouMean(key, allowed)}${allowed.length > 0 ? ` ${list}: ${allowed.join(", ")}.` : ""}`,
        atKey: true,
      }));
    }
    case "invalid_type":
      return issue.input === undefined
        ? at(`is required (${article(issue.expected)})`)
        : at(`expected ${article(issue.expected)}, found ${found(issue.input)}`);
    case "invalid_value": {
      const values = issue.values.map(String);
      const input = issue.input;
      return at(
        `${found(input)} is not one of ${values.join(", ")}${typeof input === "string" ? didYouMean(input, values) : ""}`,
      );
    }
    case "invalid_union":
      return describeUnion(issue, isSecret, path);
    case "too_small":
    case "too_big":
      return at(sizeMessage(issue));
    case "invalid_format":
      return at(
        issue.message.startsWith("Invalid")
          ? `${found(issue.input)} is not a valid ${issue.format}`
          : `${found(issue.input)}: ${issue.message}`,
      );
    case "invalid_key":
      return describeIssues(issue.issues, isSecret, path).map((inner) => ({
        ...inner,
        message: `key: ${inner.message}`,
        atKey: true,
      }));
    case "invalid_element":
      return describeIssues(issue.issues, isSecret, path);
    case "custom":
      return [{ path, message: issue.message, atKey: issue.params?.atKey === true }];
    default:
      return at(issue.message);
  }
}

/** A union failed: report the branch the input got furthest in, or what each branch expected. */
function describeUnion(
  issue: Extract<Issue, { code: "invalid_union" }>,
  isSecret: IsSecret,
  path: PathSegment[],
): PathIssue[] {
  // How far the input got into a branch: 0 not its type, 1 not its literal, 2 past its top level.
  const reach = (inner: Issue) =>
    inner.path.length > 0 ? 2 : inner.code === "invalid_type" ? 0 : inner.code === "invalid_value" ? 1 : 2;
  let best: readonly Issue[] = [];
  let furthest = 0;
  for (const branch of issue.errors) {
    const score = branch.length === 0 ? 0 : Math.min(...branch.map(reach));
    if (score > furthest) [best, furthest] = [branch, score];
  }
  const types = issue.errors.flatMap((branch) =>
    branch.flatMap((inner) =>
      inner.path.length === 0 && inner.code === "invalid_type" ? [article(inner.expected)] : [],
    ),
  );
  const literal = best[0];
  const input = issue.input;
  // `auto` or a number: a word that is neither names both, not only the words allowed.
  if (furthest === 1 && literal?.code === "invalid_value" && types.length > 0) {
    const values = literal.values.map(String);
    const hint = typeof input === "string" ? didYouMean(input, values) : "";
    const message = `${show(input)} is neither one of ${values.join(", ")} nor ${[...new Set(types)].join(" nor ")}${hint}`;
    return [{ path, message, atKey: false }];
  }
  if (furthest > 0) return describeIssues(best, isSecret, path);
  // No branch got past its type: each one's type is what was expected.
  const found = isSecret(path) ? "a secret" : show(input);
  const message = `expected ${[...new Set(types)].join(" or ") || "another form"}, found ${found}`;
  return [{ path, message, atKey: false }];
}

const ALLOWED_PREFIX = "allowed keys: ";

/**
 * The per-parse error map: zod hands the object schema (`inst`) only to error maps, not to the final
 * issue, so the allowed keys are written into the message here and read back in `allowedKeys`.
 */
export function pipelineErrorMap(issue: { code?: string; inst?: unknown }): string | undefined {
  const inst = issue.inst;
  if (issue.code !== "unrecognized_keys" || typeof inst !== "object" || inst === null || !("shape" in inst))
    return undefined;
  const shape = inst.shape;
  return typeof shape === "object" && shape !== null
    ? ALLOWED_PREFIX + Object.keys(shape).join(", ")
    : undefined;
}

function allowedKeys(issue: Extract<Issue, { code: "unrecognized_keys" }>): string[] {
  return issue.message.startsWith(ALLOWED_PREFIX)
    ? issue.message.slice(ALLOWED_PREFIX.length).split(", ")
    : [];
}

function sizeMessage(issue: Extract<Issue, { code: "too_small" | "too_big" }>): string {
  const small = issue.code === "too_small";
  const limit = Number(small ? issue.minimum : issue.maximum);
  if (issue.origin === "array" || issue.origin === "set") {
    if (small) return limit <= 1 ? "must not be empty" : `needs at least ${limit} entries`;
    return `has more than ${limit} entries`;
  }
  if (issue.origin === "string") {
    if (small) return limit <= 1 ? "must not be empty" : `must be at least ${limit} characters`;
    return `must be at most ${limit} characters`;
  }
  const inclusive = issue.inclusive !== false;
  const bound = small ? (inclusive ? "at least" : "greater than") : inclusive ? "at most" : "less than";
  return `${show(issue.input)} is out of range: must be ${bound} ${limit}`;
}

function article(expected: string): string {
  const names: Record<string, string> = {
    object: "a mapping",
    record: "a mapping",
    array: "a list",
    string: "a string",
    number: "a number",
    int: "an integer",
    boolean: "true or false",
    null: "null",
  };
  return names[expected] ?? expected;
}

/** A short, quoted rendering of a found value. */
function show(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (typeof value === "string")
    return JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value);
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "a mapping";
  return `${typeof value} ${String(value)}`;
}
