// Keeps secrets out of messages and errors: strips query strings (presigned signatures) and userinfo
// from URLs (plain or percent-encoded), masks Authorization and Basic values, SigV4 parts and known secret values in every encoding a server may echo them in,
// escapes control characters of text a server sent, and rebuilds foreign errors (undici's carry URLs)
// as clean copies.
import { CONTROL } from "../core/control-characters.js";

const URL_QUERY = /(\bhttps?:\/\/[^\s"'<>?#]*)[?#][^\s"'<>]*/gi;
const URL_USERINFO = /(\b[a-z][a-z0-9+.-]*:\/\/)[^\s/?#@"'<>]*@/gi;
/** The same URL percent-encoded (a server echoing it in a query or a form): `http%3A%2F%2Fu%3Ap%40host`. */
const ENCODED_USERINFO = /(\b[a-z][a-z0-9+.-]*%3A%2F%2F)(?:(?!%2F|%40)[^\s/?#@"'<>&])*%40/gi;
/** `Authorization:` and `Proxy-Authorization:` values as headers, JSON or text echo them, to the line's end. */
const AUTHORIZATION = /\b((?:Proxy-)?Authorization)(["']?\s*[:=]\s*["']?)(?!\[redacted\])[^\r\n"'\\]+/gi;
/** HTTP Basic credentials: base64 of `user:password`. */
const BASIC = /\bBasic\s+[A-Za-z0-9+/=_-]{4,}/gi;
const JWT = /\beyJ[\w-]{4,}\.[\w-]{4,}\.[\w-]*/g;
const BEARER = /\bBearer\s+[^\s"',]+/gi;
/** SigV4 parts as they appear in headers, query strings and S3 error bodies. */
const SIGV4 =
  /\b(Credential|Signature|SignedHeaders|X-Amz-Credential|X-Amz-Signature|X-Amz-Security-Token|SessionToken|AWSAccessKeyId)(\s*[=:]\s*|"\s*:\s*")[^\s,;&"'<>]+/gi;
/** S3 error bodies echo what was signed: the canonical request carries the session token. */
const SIGNED_XML =
  /<(SignatureProvided|StringToSign|StringToSignBytes|CanonicalRequest|CanonicalRequestBytes|AWSAccessKeyId)>[\s\S]*?(<\/\1>|$)/g;
const CONTROL_EVERYWHERE = new RegExp(CONTROL.source, "g");
/** The controls JSON writes short; any other is shown as its `\\u` escape. */
const SHORT_ESCAPES: Readonly<Record<string, string>> = { "\r": "\\r", "\n": "\\n", "\t": "\\t" };

/** The ways a secret travels: raw, URL-encoded (`%20` and form `+` for space), JSON-escaped, base64. */
function encodingsOf(secret: string): string[] {
  const json = JSON.stringify(secret).slice(1, -1);
  const url = encodeURIComponent(secret);
  const form = new URLSearchParams({ s: secret }).toString().slice(2);
  const base64 = Buffer.from(secret, "utf8").toString("base64");
  const forms = [
    secret,
    json,
    url,
    form,
    url.replace(/%20/g, "+"),
    encodeURIComponent(json),
    base64,
    base64.replace(/=+$/, ""),
  ];
  // The longest first, so a shorter form never leaves part of a longer one behind.
  return [...new Set(forms)].sort((a, b) => b.length - a.length);
}

/**
 * The credentials a URL carries in its userinfo, as secrets for `redactText`: the user and the
 * password (decoded) and `user:password`, whose base64 is what an HTTP client sends as Basic.
 * @example
 * redactText(gatewayAnswer, urlCredentials("https://ci:s3cret@push.example")) // no "s3cret", no "Y2k6czNjcmV0"
 */
export function urlCredentials(url: string): string[] {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return [];
  }
  const decode = (part: string): string => {
    try {
      return decodeURIComponent(part);
    } catch {
      return part;
    }
  };
  if (parsed.username === "" && parsed.password === "") return [];
  const user = decode(parsed.username);
  const password = decode(parsed.password);
  const pair = `${user}:${password}`;
  return [...new Set([pair, user, password, parsed.username, parsed.password].filter((s) => s !== ""))];
}

/**
 * Masks URL query strings and userinfo, bearer values, JWTs, SigV4 credentials and signatures, and
 * every given secret in any of its encodings. Redact before truncating, never after: a cut through a
 * secret would leave a part of it that no longer matches.
 * @example
 * redactText("GET https://s3/x?X-Amz-Signature=abc failed", []) // "GET https://s3/x?[redacted] failed"
 */
export function redactText(text: string, secrets: Iterable<string> = []): string {
  let out = text;
  // Known secrets first: a pattern below could cut through one and leave a part no longer matching.
  for (const secret of secrets) {
    if (secret.length < 4) continue;
    for (const form of encodingsOf(secret)) out = out.split(form).join("[redacted]");
  }
  return out
    .replace(URL_QUERY, "$1?[redacted]")
    .replace(URL_USERINFO, "$1[redacted]@")
    .replace(ENCODED_USERINFO, "$1[redacted]%40")
    .replace(AUTHORIZATION, "$1$2[redacted]")
    .replace(BEARER, "Bearer [redacted]")
    .replace(BASIC, "Basic [redacted]")
    .replace(JWT, "[redacted]")
    .replace(SIGNED_XML, "<$1>[redacted]</$1>")
    .replace(SIGV4, "$1$2[redacted]");
}

/**
 * Text a server sent, made fit for one log line or terminal line: control characters (CR, ANSI
 * escapes, line separators) shown as escapes, so no answer can forge or overwrite a line.
 * @example
 * escapeControl("ok\r\u001b[2Kcomplete") // "ok\\r\\u001b[2Kcomplete"
 */
export function escapeControl(text: string): string {
  return text.replace(
    CONTROL_EVERYWHERE,
    (c) => SHORT_ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/** Server text for a message: redacted, escaped, and only then cut to `max` characters. */
export function showServerText(text: string, secrets: Iterable<string>, max = 300): string {
  const shown = escapeControl(redactText(text, secrets));
  return shown.length <= max ? shown : `${shown.slice(0, max)}…`;
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
class SanitizedError extends Error {
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
