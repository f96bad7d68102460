// Turns a failure to exchange bytes (reset, refused, timeout, truncated body) into a retryable ApiError
// whose cause chain is a redacted copy: undici errors can carry the request URL and options.
import { ApiError, isApiError } from "../errors.js";
import { sanitizeError, showServerText } from "./redact.js";

/**
 * @example
 * try { await http.send(req) } catch (error) { throw toNetworkError("/v3/jobs/query", error, secrets) }
 */
export function toNetworkError(operation: string, error: unknown, secrets: Iterable<string>): ApiError {
  if (isApiError(error)) return error;
  const list = [...secrets];
  const code = (error as { code?: unknown } | null)?.code;
  const what = error instanceof Error ? showServerText(error.message, list, 500) : "unknown failure";
  return new ApiError(
    `${operation} failed on the network${typeof code === "string" ? ` (${code})` : ""}: ${what}`,
    { operation, retryable: true, cause: sanitizeError(error, list) },
    "NETWORK_ERROR",
  );
}
