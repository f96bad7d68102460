// Keeps secrets out of messages and errors: strips query strings (presigned signatures) from URLs,
// masks known secret values, and rebuilds foreign errors (undici's carry URLs) as clean copies.

const URL_QUERY = /(\bhttps?:\/\/[^\s"'<>?#]*)[?#][^\s"'<>]*/gi;
const JWT = /\beyJ[\w-]{4,}\.[\w-]{4,}\.[\w-]*/g;
const BEARER = /\bBearer\s+[^\s"',]+/gi;

/**
 * Masks URL query strings, bearer values, JWTs and every given secret in a text.
 * @example
 * redactText("GET https://s3/x?X-Amz-Signature=abc failed", []) // "GET https://s3/x?[redacted] failed"
 */
export function redactText(text: string, secrets: Iterable<string> = []): string {
  let out = text
    .replace(URL_QUERY, "$1?[redacted]")
    .replace(BEARER, "Bearer [redacted]")
    .replace(JWT, "[redacted]");
  for (const secret of secrets) {
    if (secret.length >= 4) out = out.split(secret).join("[redacted]");
  }
  return out;
}

/** A URL fit for messages: origin and path, never the query (which carries presigned signatures). */
export function describeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return redactText(url);
  }
}

/** A clean stand-in for a foreign error: same name, code and message (redacted), cleaned cause chain. */
export class SanitizedError extends Error {
  readonly code: string | undefined;

  constructor(name: string, message: string, code: string | undefined, cause: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = name;
    this.code = code;
  }
}

/**
 * Copies an error and its `cause` chain with every message and stack redacted. Foreign errors are
 * replaced by `SanitizedError`, so no property (undici keeps request options and URLs) survives.
 */
export function sanitizeError(error: unknown, secrets: Iterable<string> = [], depth = 0): unknown {
  const list = [...secrets];
  if (!(error instanceof Error)) {
    return typeof error === "string" ? redactText(error, list) : error;
  }
  const cause =
    depth < 8 && error.cause !== undefined ? sanitizeError(error.cause, list, depth + 1) : undefined;
  const rawCode = (error as { code?: unknown }).code;
  const code = typeof rawCode === "string" ? rawCode : undefined;
  const copy = new SanitizedError(error.name, redactText(error.message, list), code, cause);
  copy.stack = redactText(error.stack ?? "", list);
  return copy;
}
