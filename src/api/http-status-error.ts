// The error for a response the client did not expect, carrying a redacted excerpt of its body.
import { ApiError, hasCode } from "../errors.js";
import { showServerText } from "./redact.js";

interface HttpStatusErrorDetails {
  retryable: boolean;
  /** Set from Retry-After on 429 and 503. */
  retryAfterMs?: number;
}

/**
 * The service answered `status`; `detail` is the body's message (or its first characters), already
 * redacted. Paging reads it to tell a lost scroll or point in time from other client errors.
 * @example
 * if (isHttpStatusError(error) && error.status === 413) size = Math.floor(size / 2);
 */
export class HttpStatusError extends ApiError {
  override readonly status: number;
  readonly detail: string;
  readonly retryAfterMs: number | undefined;

  constructor(operation: string, status: number, detail: string, details: HttpStatusErrorDetails) {
    super(
      `${operation} answered HTTP ${status}${detail === "" ? "" : `: ${detail}`}`,
      { operation, status, retryable: details.retryable },
      status === 413 ? "PAYLOAD_TOO_LARGE" : "HTTP_STATUS",
    );
    this.status = status;
    this.detail = detail;
    this.retryAfterMs = details.retryAfterMs;
  }
}

/**
 * The message of an error body in any of the spec's shapes (`detail`, `message`, `error`/`details`),
 * redacted and escaped before it is cut to 300 characters.
 */
export function describeErrorBody(text: string, secrets: Iterable<string>): string {
  try {
    const body: unknown = JSON.parse(text);
    if (body !== null && typeof body === "object") {
      const record = body as Record<string, unknown>;
      const parts = ["detail", "message", "error", "details"]
        .map((key) => record[key])
        .filter((value): value is string => typeof value === "string");
      if (parts.length > 0) return showServerText(parts.join(": "), secrets);
    }
  } catch {
    // Not JSON: fall through to the raw text.
  }
  return showServerText(text.trim(), secrets);
}

/**
 * An `HttpStatusError`, with its status and Retry-After: its codes, and the body excerpt only it
 * carries (an error that spent its retries keeps the code but not the excerpt).
 */
export function isHttpStatusError(error: unknown): error is HttpStatusError {
  return (
    hasCode(error, "HTTP_STATUS", "PAYLOAD_TOO_LARGE") &&
    typeof (error as { detail?: unknown }).detail === "string"
  );
}
