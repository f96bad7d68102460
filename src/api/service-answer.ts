// One attempt of an operation on the wire, up to its body: the bearer token (one refresh and one
// resend on 401), the status turned into its error, and the judgement of a 2xx body that breaks on
// the way, which decides for every reader of a body (whole text or streamed hits) whether the
// request may be sent again.
import type { z } from "zod";
import { ApiError, isApiError, PermissionError, QuotaExhaustedError } from "../errors.js";
import { OPERATIONS } from "./wire/operations.js";
import type { OperationPath } from "./wire/operations.js";
import { ResponseBoundError } from "./bounded-body.js";
import { reportedRemaining } from "./quota-tracker.js";
import { parseRetryAfter } from "./retry-policy.js";
import { HttpStatusError, describeErrorBody } from "./http-status-error.js";
import { toNetworkError } from "./network-error.js";
import { MalformedBodyError } from "../decoding/hit-stream.js";
import type { OpenAnswer, ResponseOf, ServiceCall, ServiceCallDeps } from "./service-operation.js";

/** The table seen through a mapped type, so that a generic path yields its own response type. */
const RESPONSE_SCHEMAS: { [P in OperationPath]: { response: z.ZodType<ResponseOf<P>> } } = OPERATIONS;

/** Operations whose batch token travels in the body and is answered 401 when unknown. */
const BATCH_TOKEN_IN_401: ReadonlySet<string> = new Set(["/v1/logs/batch/urls", "/v1/logs/batch/status"]);

/** An error body is read only this far: its message is all the client shows. */
const ERROR_EXCERPT_BYTES = 16 * 1024;

/** A non-2xx answer: its status, Retry-After and an excerpt of its body. */
interface FailedAnswer {
  status: number;
  retryAfter: string | string[] | undefined;
  text: string;
}

/**
 * What a 2xx body that broke while it was read stands for: the one place deciding whether the request
 * is sent again. A hit against the wire schema is the service's answer, not an accident: never resent.
 * A body over the byte cap asks for a smaller page (RESPONSE_TOO_LARGE). Otherwise (cut short, not
 * JSON, connection reset, deadline) it is resent like a reset, unless the request moved a cursor:
 * then the page is lost (RESPONSE_LOST) and the pager restarts.
 * @example
 * try { text = await answer.body.text(); } catch (error) { throw brokenBody(deps, call, answer.status, error); }
 */
export function brokenBody<P extends OperationPath>(
  deps: ServiceCallDeps,
  call: ServiceCall<P>,
  status: number,
  error: unknown,
): unknown {
  if (call.signal?.aborted === true) return call.signal.reason;
  if (isApiError(error) && !error.retryable) return error;
  // Where the operation pages, paging treats a body over the byte cap like 413 (a smaller page).
  if (error instanceof ResponseBoundError && error.code === "RESPONSE_TOO_LARGE")
    return new ApiError(
      `${call.path} answered more than ${error.limit} bytes; raise service.limits.max_response_bytes, ` +
        "request fewer fields or a smaller page, or export with a batch operation",
      { operation: call.path, status, retryable: false },
      "RESPONSE_TOO_LARGE",
    );
  const failure =
    error instanceof MalformedBodyError
      ? new ApiError(`${call.path} answered a truncated body (${error.message})`, {
          operation: call.path,
          status,
          retryable: true,
        })
      : toNetworkError(call.path, error, deps.tokens.secrets());
  if (!call.movesCursor) return failure;
  // Sent again, the request would skip the lost page: it is not, and the pager restarts.
  return new ApiError(
    `${call.path} was answered but the response broke on the way; the cursor has moved, so the page cannot be fetched again`,
    { operation: call.path, status: failure.status, retryable: false, cause: failure },
    "RESPONSE_LOST",
  );
}

/**
 * Whether a 429 with this Retry-After means the day's quota is gone rather than a short throttle: the
 * last count the service reported was 0, no Retry-After comes with it, or Retry-After reaches past the
 * retry budget (a wait until the quota renews). A short throttle waits Retry-After and is sent again.
 */
function isQuotaGone(deps: ServiceCallDeps, retryAfterMs: number | undefined): boolean {
  const remaining = deps.quota.remaining;
  return (
    retryAfterMs === undefined ||
    (remaining !== undefined && remaining <= 0) ||
    retryAfterMs > deps.retry.maxElapsedMs
  );
}

/**
 * Whether the service asked for less pressure: 503, or a 429 that is a short throttle (the day's
 * quota being gone is not overload, and fewer requests at once would not bring it back).
 */
function isPushBack(
  deps: ServiceCallDeps,
  status: number,
  retryAfter: string | string[] | undefined,
): boolean {
  if (status === 503) return true;
  if (status !== 429) return false;
  return !isQuotaGone(deps, parseRetryAfter(retryAfter, deps.clock.now()));
}

/** Sends the request once; a 2xx comes back unread, any other status with an excerpt of its body. */
async function sendOnce<P extends OperationPath>(
  deps: ServiceCallDeps,
  call: ServiceCall<P>,
  token: string,
): Promise<OpenAnswer | FailedAnswer> {
  // A place among the requests that wait for an answer: held until the status line is in.
  const pass = await deps.gate.enter(call.signal);
  try {
    const response = await deps.http.send({
      method: "POST",
      url: `${deps.baseUrl.replace(/\/+$/, "")}${call.path}`,
      headers: {
        authorization: `Bearer ${token}`,
        "content-type": "application/json",
        accept: "application/json",
        "user-agent": deps.userAgent,
      },
      body: JSON.stringify(call.body ?? {}),
      signal: call.signal,
    });
    const status = response.status;
    const retryAfter = response.headers["retry-after"];
    pass.answered(isPushBack(deps, status, retryAfter));
    if (status >= 200 && status < 300) return { status, body: response.body };
    return { status, retryAfter, text: await response.body.excerpt(ERROR_EXCERPT_BYTES) };
  } catch (error) {
    pass.failed();
    if (call.signal?.aborted === true) throw call.signal.reason;
    throw toNetworkError(call.path, error, deps.tokens.secrets());
  }
}

/** The error a non-2xx answer (other than a first 401) stands for. */
function statusError(deps: ServiceCallDeps, path: string, answer: FailedAnswer): unknown {
  const { status } = answer;
  const detail = describeErrorBody(answer.text, deps.tokens.secrets());
  if (status === 401) {
    if (BATCH_TOKEN_IN_401.has(path)) return new HttpStatusError(path, 401, detail, { retryable: false });
    // A fresh token refused as well: retried within the policy (a revocation race), and an
    // AuthError once the policy is spent (see giveUp).
    return new HttpStatusError(path, 401, detail, { retryable: true });
  }
  if (status === 403) return new PermissionError(path);
  const retryAfterMs = parseRetryAfter(answer.retryAfter, deps.clock.now());
  if (status === 429 && isQuotaGone(deps, retryAfterMs)) {
    const remaining = deps.quota.remaining;
    deps.quota.markExhausted();
    return new QuotaExhaustedError(
      `the daily request quota is exhausted (${path} answered HTTP 429); resume when the quota renews`,
      remaining,
      deps.quota.reserve,
      { cause: new HttpStatusError(path, 429, detail, { retryable: false, retryAfterMs }) },
    );
  }
  // A 429 here is a short throttle: retried after its Retry-After, as 5xx are.
  const retryable = status >= 500 || status === 429;
  return new HttpStatusError(path, status, detail, { retryable, retryAfterMs });
}

/**
 * One attempt up to a 2xx: a token, a send, and on 401 one refresh and one resend. Throws the error
 * any other status stands for. The caller reads the body and holds the quota slot while it does.
 * @example
 * const answer = await sendAuthorized(deps, call);
 * const response = parseResponse(deps, call, answer.status, JSON.parse(await answer.body.text()));
 */
export async function sendAuthorized<P extends OperationPath>(
  deps: ServiceCallDeps,
  call: ServiceCall<P>,
): Promise<OpenAnswer> {
  let token = await deps.tokens.getToken(call.signal);
  let answer = await sendOnce(deps, call, token);
  if (answer.status === 401) {
    deps.tokens.invalidate(token);
    deps.observer.retried("token");
    token = await deps.tokens.getToken(call.signal);
    answer = await sendOnce(deps, call, token);
    if (answer.status === 401) deps.tokens.invalidate(token);
  }
  deps.logger.debug({ operation: call.path, status: answer.status }, "Service answered.");
  if ("body" in answer) return answer;
  throw statusError(deps, call.path, answer);
}

/** Parses a 2xx body's JSON with the operation's wire schema and notes the quota it reports. */
export function parseResponse<P extends OperationPath>(
  deps: ServiceCallDeps,
  call: ServiceCall<P>,
  status: number,
  json: unknown,
): ResponseOf<P> {
  const parsed = RESPONSE_SCHEMAS[call.path].response.safeParse(json);
  if (!parsed.success) {
    const where = parsed.error.issues
      .slice(0, 3)
      .map((issue) => `${issue.path.join(".") || "(body)"}: ${issue.message}`)
      .join("; ");
    throw new ApiError(`${call.path} answered a body that does not follow the spec (${where})`, {
      operation: call.path,
      status,
      retryable: false,
    });
  }
  const remaining = reportedRemaining(parsed.data);
  if (remaining !== undefined) {
    deps.quota.observe(remaining);
    deps.observer.quotaReported(remaining);
  }
  return parsed.data;
}
