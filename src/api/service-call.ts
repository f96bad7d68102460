// Sends one operation to the service: local validation, quota reserve, bearer token (one refresh and
// one resend on 401), retries of network errors, 5xx and transient 429, and parsing with the wire schema.
import type { z } from "zod";
import type { Logger } from "../logger.js";
import { ApiError, AuthError, PermissionError, QuotaExhaustedError } from "../errors.js";
import { OPERATIONS } from "./wire/operations.js";
import type { OperationPath } from "./wire/operations.js";
import { assertValidRequest } from "./request-validation.js";
import type { Clock } from "./clock.js";
import type { HttpTransport } from "./http-transport.js";
import type { QuotaTracker } from "./quota-tracker.js";
import { reportedRemaining } from "./quota-tracker.js";
import type { RetryPolicy } from "./retry-policy.js";
import { parseRetryAfter } from "./retry-policy.js";
import type { TokenProvider } from "./token-provider.js";
import { runWithRetries } from "./retry.js";
import { HttpStatusError, describeErrorBody } from "./http-status-error.js";
import { toNetworkError } from "./network-error.js";
import { classifyRateLimit } from "./rate-limit.js";
import { redactText } from "./redact.js";

/** The request body an operation takes, as its wire schema types it. */
export type RequestOf<P extends OperationPath> = z.input<(typeof OPERATIONS)[P]["request"]["base"]>;

/** The parsed response of an operation. */
export type ResponseOf<P extends OperationPath> = z.infer<(typeof OPERATIONS)[P]["response"]>;

/** The table seen through a mapped type, so that a generic path yields its own response type. */
const RESPONSE_SCHEMAS: { [P in OperationPath]: { response: z.ZodType<ResponseOf<P>> } } = OPERATIONS;

/** Operations whose batch token travels in the body and is answered 401 when unknown. */
const BATCH_TOKEN_IN_401: ReadonlySet<string> = new Set(["/v1/logs/batch/urls", "/v1/logs/batch/status"]);

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
}

/**
 * A request that moves a server-side cursor (a scroll continuation) was answered, but the answer broke
 * on the way. Sending it again would skip the lost page, so it is not retried; the pager restarts.
 */
function responseLost(path: string, cause: ApiError): ApiError {
  return new ApiError(
    `${path} was answered but the response broke on the way; the cursor has moved, so the page cannot be fetched again`,
    { operation: path, status: cause.status, retryable: false, cause },
    "RESPONSE_LOST",
  );
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * Sends `body` to `op` and returns the parsed response. Throws RequestValidationError before sending,
 * QuotaExhaustedError, AuthError, PermissionError, HttpStatusError (other statuses) or ApiError.
 */
export async function callService<P extends OperationPath>(
  deps: ServiceCallDeps,
  path: P,
  body: RequestOf<P>,
  signal?: AbortSignal,
  idempotent = true,
): Promise<ResponseOf<P>> {
  assertValidRequest(path, body);
  const schema = RESPONSE_SCHEMAS[path].response;
  const op = { path, batchTokenIn401: BATCH_TOKEN_IN_401.has(path) };
  const url = `${deps.baseUrl.replace(/\/+$/, "")}${path}`;
  const payload = JSON.stringify(body ?? {});
  const attempt = async (): Promise<ResponseOf<P>> => {
    // On 401: one refresh and one resend per attempt.
    let resentAfter401 = false;
    deps.quota.acquire(op.path);
    try {
      for (;;) {
        const token = await deps.tokens.getToken(signal);
        const started = deps.clock.now();
        let status: number | undefined;
        let text: string;
        let retryAfterHeader: string | string[] | undefined;
        try {
          const response = await deps.http.send({
            method: "POST",
            url,
            headers: {
              authorization: `Bearer ${token}`,
              "content-type": "application/json",
              accept: "application/json",
              "user-agent": deps.userAgent,
            },
            body: payload,
            signal,
          });
          status = response.status;
          retryAfterHeader = response.headers["retry-after"];
          text = await response.body.text();
        } catch (error) {
          if (signal?.aborted) throw signal.reason;
          const failure = toNetworkError(op.path, error, deps.tokens.secrets());
          if (status !== undefined && status >= 200 && status < 300 && !idempotent)
            throw responseLost(op.path, failure);
          throw failure;
        }
        deps.logger.debug(
          { operation: op.path, status, ms: deps.clock.now() - started },
          "Service answered.",
        );
        const detail = (): string => redactText(describeErrorBody(text), deps.tokens.secrets());
        if (status === 401) {
          deps.tokens.invalidate(token);
          if (!resentAfter401) {
            resentAfter401 = true;
            continue;
          }
          if (op.batchTokenIn401) throw new HttpStatusError(op.path, 401, detail(), { retryable: false });
          // A fresh token refused as well: retried within the policy (a revocation race), and an
          // AuthError once the policy is spent (see onGiveUp).
          throw new HttpStatusError(op.path, 401, detail(), { retryable: true });
        }
        if (status === 403) throw new PermissionError(op.path);
        if (status === 429) {
          throw classifyRateLimit(
            deps.quota,
            deps.retry,
            op.path,
            parseRetryAfter(retryAfterHeader, deps.clock.now()),
            detail(),
          );
        }
        if (status < 200 || status >= 300) {
          const retryAfterMs = parseRetryAfter(retryAfterHeader, deps.clock.now());
          throw new HttpStatusError(op.path, status, detail(), { retryable: status >= 500, retryAfterMs });
        }
        const json = parseJson(text);
        if (json === undefined) {
          // A 2xx whose body is not JSON was cut short on the way: the same as a reset, so retried.
          const failure = new ApiError(`${op.path} answered a truncated body (${text.length} characters)`, {
            operation: op.path,
            status,
            retryable: true,
          });
          throw idempotent ? failure : responseLost(op.path, failure);
        }
        const parsed = schema.safeParse(json);
        if (!parsed.success) {
          const where = parsed.error.issues
            .slice(0, 3)
            .map((issue) => `${issue.path.join(".") || "(body)"}: ${issue.message}`)
            .join("; ");
          throw new ApiError(`${op.path} answered a body that does not follow the spec (${where})`, {
            operation: op.path,
            status,
            retryable: false,
          });
        }
        const remaining = reportedRemaining(parsed.data);
        if (remaining !== undefined) deps.quota.observe(remaining);
        return parsed.data;
      }
    } finally {
      deps.quota.release();
    }
  };

  return runWithRetries(attempt, {
    policy: deps.retry,
    clock: deps.clock,
    random: deps.random,
    signal,
    onRetry: (error, attemptNumber, delayMs) =>
      deps.logger.warn(
        { operation: op.path, attempt: attemptNumber, status: error.status, code: error.code, delayMs },
        "Retrying a service request.",
      ),
    onGiveUp: (error) =>
      error.status === 401
        ? new AuthError(`${op.path} kept refusing freshly issued access tokens (HTTP 401)`, {
            operation: op.path,
            status: 401,
            cause: error,
          })
        : error.status === 429
          ? new QuotaExhaustedError(
              `${op.path} kept answering HTTP 429 through every retry; treating the daily quota as exhausted`,
              deps.quota.remaining,
              deps.quota.reserve,
              { cause: error },
            )
          : error,
  });
}
