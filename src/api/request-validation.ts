// Checks a request body against the spec's rules before it is sent, so a bad request fails locally
// with a message naming the field, the value and what is allowed.
import { RequestValidationError } from "../errors.js";
import { validateRequest } from "./wire/operations.js";
import type { OperationPath } from "./wire/operations.js";
import { formatProblem } from "./wire/common.js";

/**
 * Throws RequestValidationError naming the first offending field (and listing every problem).
 * @example
 * assertValidRequest("/v3/jobs/query", { size: 0 }); // throws: /v3/jobs/query: size: 0 must be an integer greater than 0; application: is required; ...
 */
export function assertValidRequest(path: OperationPath, body: unknown): void {
  const [first, ...rest] = validateRequest(path, body);
  if (first === undefined) return;
  const message = [formatProblem(first).slice(first.field.length + 2), ...rest.map(formatProblem)].join("; ");
  throw new RequestValidationError(path, first.field, message);
}
