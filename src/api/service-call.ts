// Sends one operation to the service: local validation, quota reserve, bearer token (one refresh and
// one resend on 401), retries of network errors, 5xx and transient 429, and parsing with the wire
// schema. One retry budget covers the whole operation: a token request that fails uses up an attempt
// of the operation, it is not retried on its own inside each attempt.
import type { z } from "zod";
import type { Logger } from "../logger.js";
import { ApiError, AuthError, isApiError, PermissionError, QuotaExhaustedError } from "../errors.js";
import { OPERATIONS } from "./wire/operations.js";
import type { OperationPath } from "./wire/operations.js";
import { assertValidRequest } from "./request-validation.js";
import type { Clock } from "./clock.js";
import type { HttpTransport } from "./http-transport.js";
import { ResponseBoundError } from "./bounded-body.js";
import type { QuotaTracker } from "./quota-tracker.js";
import { reportedRemaining } from "./quota-tracker.js";
import type { RetryPolicy } from "./retry-policy.js";
import { parseRetryAfter } from "./retry-policy.js";
import type { TokenProvider } from "./token-provider.js";
import { runWithRetries } from "./retry.js";
import { HttpStatusError, describeErrorBody } from "./http-status-error.js";
import { toNetworkError } from "./network-error.js";
import { classifyRateLimit } from "./rate-limit.js";
import { describeUrl } from "./redact.js";
import { decodeHitStream, HitConsumerError, MalformedBodyError } from "./paging/hit-stream.js";
import type { HitConsumer } from "./paging/hit-stream.js";
import type { RunObserver } from "../core/run-observer.js";
import { retryReasonOf } from "./observed-transport.js";

/** The request body an operation takes, as its wire schema types it. */
export type RequestOf<P extends OperationPath> = z.input<(typeof OPERATIONS)[P]["request"]["base"]>;

/** The parsed response of an operation. */
export type ResponseOf<P extends OperationPath> = z.infer<(typeof OPERATIONS)[P]["response"]>;

/** The table seen through a mapped type, so that a generic path yields its own response type. */
const RESPONSE_SCHEMAS: { [P in OperationPath]: { response: z.ZodType<ResponseOf<P>> } } = OPERATIONS;

/** Operations whose batch token travels in the body and is answered 401 when unknown. */
const BATCH_TOKEN_IN_401: ReadonlySet<string> = new Set(["/v1/logs/batch/urls", "/v1/logs/batch/status"]);

/** An error body is read only this far: its message is all the client shows. */
const ERROR_EXCERPT_BYTES = 16 * 1024;

export interface ServiceCallDeps {
  baseUrl: string;
  http: HttpTransport;
  tokens: TokenProvider;
  quota: QuotaTracker;
  retry: RetryPolicy;
  clock: Clock;
  random: () => number;
  logger: Logger;
  userAgent: string;
  observer: RunObserver;
}

/** One operation as `callService` sends it. */
export interface ServiceCall<P extends OperationPath> {
  path: P;
  body: RequestOf<P>;
  signal?: AbortSignal | undefined;
  /**
   * The request moves a server-side cursor (a scroll continuation): a 2xx whose body breaks is then
   * not resent (the page would be skipped) but fails with code RESPONSE_LOST.
   */
  movesCursor: boolean;
  /**
   * Paged queries: a 2xx page's hits are decoded as the body streams in (through the same byte cap
   * and deadline) and handed on in batches; the response then comes back with its hits array empty.
   */
  onHits?: HitConsumer | undefined;
}

/** What came back from one send: the status, Retry-After, and the body (whole on 2xx, an excerpt otherwise). */
interface Answer {
  status: number;
  retryAfter: string | string[] | undefined;
  text: string;
  /** The envelope decoded while streaming the hits out (undefined when the body was not JSON). */
  streamed?: unknown;
}

/**
 * A request that moves a server-side cursor was answered, but the answer broke on the way. Sending it
 * again would skip the lost page, so it is not retried; the pager restarts.
 */
function responseLost(path: string, cause: ApiError): ApiError {
  return new ApiError(
    `${path} was answered but the response broke on the way; the cursor has moved, so the page cannot be fetched again`,
    { operation: path, status: cause.status, retryable: false, cause },
    "RESPONSE_LOST",
  );
}

/** A 2xx body over the byte cap: where the operation pages, paging treats it like 413 (smaller page). */
function responseTooLarge(path: string, status: number, cause: ResponseBoundError): ApiError {
  return new ApiError(
    `${path} answered more than ${cause.limit} bytes; raise service.limits.max_response_bytes, ` +
      "request fewer fields or a smaller page, or export with a batch operation",
    { operation: path, status, retryable: false },
    "RESPONSE_TOO_LARGE",
  );
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Sends the request once and reads the answer within the transport's deadline and byte cap. */
async function sendOnce<P extends OperationPath>(
  deps: ServiceCallDeps,
  call: ServiceCall<P>,
  token: string,
): Promise<Answer> {
  let status: number | undefined;
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
    status = response.status;
    const ok = status >= 200 && status < 300;
    const retryAfter = response.headers["retry-after"];
    if (ok && call.onHits !== undefined) {
      const streamed = await decodeHitStream(response.body, call.path, call.onHits).catch(
        (error: unknown) => {
          if (error instanceof MalformedBodyError) return undefined;
          throw error;
        },
      );
      return { status, retryAfter, text: "", streamed };
    }
    const text = ok ? await response.body.text() : await response.body.excerpt(ERROR_EXCERPT_BYTES);
    return { status, retryAfter, text };
  } catch (error) {
    if (call.signal?.aborted === true) throw call.signal.reason;
    // The consumer's own failure, or a hit that breaks the wire schema: not the network's doing.
    if (error instanceof HitConsumerError) throw error;
    if (isApiError(error) && !error.retryable) throw error;
    const answered = status !== undefined && status >= 200 && status < 300;
    if (answered && error instanceof ResponseBoundError && error.code === "RESPONSE_TOO_LARGE")
      throw responseTooLarge(call.path, status ?? 200, error);
    const failure = toNetworkError(call.path, error, deps.tokens.secrets());
    throw answered && call.movesCursor ? responseLost(call.path, failure) : failure;
  }
}

/** Throws the error a non-2xx answer (other than a first 401) stands for. */
function failOnStatus(deps: ServiceCallDeps, path: string, answer: Answer): void {
  const { status } = answer;
  if (status >= 200 && status < 300) return;
  const detail = describeErrorBody(answer.text, deps.tokens.secrets());
  if (status === 401) {
    if (BATCH_TOKEN_IN_401.has(path)) throw new HttpStatusError(path, 401, detail, { retryable: false });
    // A fresh token refused as well: retried within the policy (a revocation race), and an
    // AuthError once the policy is spent (see giveUp).
    throw new HttpStatusError(path, 401, detail, { retryable: true });
  }
  if (status === 403) throw new PermissionError(path);
  const retryAfterMs = parseRetryAfter(answer.retryAfter, deps.clock.now());
  if (status === 429) throw classifyRateLimit(deps.quota, deps.retry, path, retryAfterMs, detail);
  throw new HttpStatusError(path, status, detail, { retryable: status >= 500, retryAfterMs });
}

/** Parses a 2xx body with the operation's wire schema and notes the quota it reports. */
function parseAnswer<P extends OperationPath>(
  deps: ServiceCallDeps,
  call: ServiceCall<P>,
  answer: Answer,
): ResponseOf<P> {
  const json = call.onHits === undefined ? parseJson(answer.text) : answer.streamed;
  if (json === undefined) {
    // A 2xx whose body is not JSON was cut short on the way: the same as a reset, so retried.
    const read = call.onHits === undefined ? `${answer.text.length} characters` : "streamed";
    const failure = new ApiError(`${call.path} answered a truncated body (${read})`, {
      operation: call.path,
      status: answer.status,
      retryable: true,
    });
    throw call.movesCursor ? responseLost(call.path, failure) : failure;
  }
  const parsed = RESPONSE_SCHEMAS[call.path].response.safeParse(json);
  if (!parsed.success) {
    const where = parsed.error.issues
      .slice(0, 3)
      .map((issue) => `${issue.path.join(".") || "(body)"}: ${issue.message}`)
      .join("; ");
    throw new ApiError(`${call.path} answered a body that does not follow the spec (${where})`, {
      operation: call.path,
      status: answer.status,
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

/** One attempt: a token, a send, and on 401 one refresh and one resend. */
async function attemptCall<P extends OperationPath>(
  deps: ServiceCallDeps,
  call: ServiceCall<P>,
): Promise<ResponseOf<P>> {
  deps.quota.acquire(call.path);
  try {
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
    failOnStatus(deps, call.path, answer);
    return parseAnswer(deps, call, answer);
  } finally {
    deps.quota.release();
  }
}

/** The error to report once the retry budget is spent. */
function giveUp(deps: ServiceCallDeps, path: string, error: ApiError): unknown {
  if (error.status === 401) {
    return new AuthError(`${path} kept refusing freshly issued access tokens (HTTP 401)`, {
      operation: path,
      status: 401,
      cause: error,
    });
  }
  if (error.status === 429) {
    return new QuotaExhaustedError(
      `${path} kept answering HTTP 429 through every retry; treating the daily quota as exhausted`,
      deps.quota.remaining,
      deps.quota.reserve,
      { cause: error },
    );
  }
  return error;
}

/**
 * Sends `call.body` to `call.path` and returns the parsed response. Throws RequestValidationError
 * before sending, QuotaExhaustedError, AuthError, PermissionError, HttpStatusError (other statuses)
 * or ApiError.
 * @example
 * const res = await callService(deps, { path: "/v3/jobs/mappings", body: {}, movesCursor: false });
 */
export async function callService<P extends OperationPath>(
  deps: ServiceCallDeps,
  call: ServiceCall<P>,
): Promise<ResponseOf<P>> {
  assertValidRequest(call.path, call.body);
  const host = describeUrl(deps.baseUrl);
  const result = runWithRetries(() => attemptCall(deps, call), {
    policy: deps.retry,
    clock: deps.clock,
    random: deps.random,
    signal: call.signal,
    onRetry: (error, attempt, delayMs) => {
      // A failed token request uses up an attempt of the operation: its retry is the token's.
      deps.observer.retried(error.operation === call.path ? retryReasonOf(error) : "token");
      deps.logger.warn(
        {
          operation: error.operation === call.path ? call.path : `${call.path} (${error.operation})`,
          host: error.operation === call.path ? host : deps.tokens.host,
          attempt,
          status: error.status,
          code: error.code,
          error: error.message,
          delayMs,
        },
        "Retrying a service request.",
      );
    },
    onGiveUp: (error) => giveUp(deps, call.path, error),
  });
  // A consumer's failure passes through the retries untouched and surfaces as itself.
  return result.catch((error: unknown) => {
    throw error instanceof HitConsumerError ? error.reason : error;
  });
}
