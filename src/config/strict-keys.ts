// Helpers for schemas whose objects must hold exactly one of several keys (query-DSL filters,
// transform steps), written as one strict object so that errors name the misspelt key.
import type { z } from "zod";

/** Adds an issue unless exactly one of `keys` is present in `value`. */
export function requireExactlyOne(
  value: Readonly<Record<string, unknown>>,
  keys: readonly string[],
  what: string,
  ctx: z.RefinementCtx,
): void {
  const present = keys.filter((key) => value[key] !== undefined);
  if (present.length === 1) return;
  ctx.addIssue({
    code: "custom",
    message:
      present.length === 0
        ? `a ${what} needs one of ${keys.join(", ")}`
        : `a ${what} has exactly one of ${keys.join(", ")}; found ${present.join(" and ")} (use a list entry each)`,
  });
}

/** Adds an issue unless the record has exactly one key (`term: { field: value }`). */
export function requireSingleKey(
  value: Readonly<Record<string, unknown>>,
  what: string,
  ctx: z.RefinementCtx,
): void {
  const count = Object.keys(value).length;
  if (count !== 1)
    ctx.addIssue({ code: "custom", message: `${what} takes exactly one field, found ${count}` });
}
