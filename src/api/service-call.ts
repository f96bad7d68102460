// Sends one operation to the service: local validation, quota reserve, the attempt on the wire
// (service-answer.ts), retries of network errors, 5xx and transient 429, and parsing with the wire
// schema. One retry budget covers the whole operation: a token request that fails uses up an attempt
// of the operation, it is not retried on its own inside each attempt. A paged query reads its body
// as a generator of hit batches (`streamService`), pulled by the pager, under the same budget.
import { AuthError, QuotaExhaustedError, RequestValidationError } from "../errors.js";
import type { ApiError } from "../errors.js";
import { validateRequest } from "./wire/operations.js";
import type { OperationPath } from "./wire/operations.js";
import { formatProblem } from "./wire/common.js";
import { valueAt } from "./wire/request-spec.js";
import type { RetryContext } from "./retry.js";
import { startRetryBudget } from "./retry.js";
import { describeUrl } from "./redact.js";
import { decodeHits, MalformedBodyError } from "../decoding/hit-stream.js";
import type { HitBatch } from "../decoding/hit-stream.js";
import type { HitArray } from "../decoding/hit-array.js";
import { readAhead } from "./read-ahead.js";
import type { ReadAheadOptions } from "./read-ahead.js";
import { retryReasonOf } from "./observed-transport.js";
import { brokenBody, parseResponse, sendAuthorized } from "./service-answer.js";
import type { OpenAnswer, ResponseOf, ServiceCall, ServiceCallDeps } from "./service-operation.js";

/**
 * Checks a request body against the spec's rules before it is sent, so a bad request fails locally:
 * RequestValidationError naming the first offending field (and listing every problem).
 * @example
 * assertValidRequest("/v3/jobs/query", { size: 0 }); // throws: /v3/jobs/query: size: 0 must be an integer greater than 0; application: is required; ...
 */
function assertValidRequest(path: OperationPath, body: unknown): void {
  const [first, ...rest] = validateRequest(path, body);
  if (first === undefined) return;
  const message = [formatProblem(first).slice(first.field.length + 2), ...rest.map(formatProblem)].join("; ");
  throw new RequestValidationError(path, first.field, message);
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

/** The operation's retry budget: its policy, a warn line per retry, and the errors it gives up with. */
function retryContext<P extends OperationPath>(deps: ServiceCallDeps, call: ServiceCall<P>): RetryContext {
  const host = describeUrl(deps.baseUrl);
  return {
    policy: deps.retry,
    clock: deps.clock,
    random: deps.random,
    signal: call.signal,
    onRetry: (error, attempt, delayMs) => {
      // A failed token request uses up an attempt of the operation: its retry is the token's.
      const own = error.operation === call.path;
      deps.observer.retried(own ? retryReasonOf(error) : "token");
      deps.logger.warn(
        {
          operation: own ? call.path : `${call.path} (${error.operation})`,
          host: own ? host : deps.tokens.host,
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
  };
}

/** The body's text as JSON; a body that is not JSON was cut short on the way (or is malformed). */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new MalformedBodyError(`${text.length} characters`, { cause: error });
  }
}

/**
 * Reads an answer's body to the response's JSON: at once, or as a generator of hit batches that
 * returns the envelope.
 */
type BodyReader = (answer: OpenAnswer) => Promise<unknown> | AsyncGenerator<HitBatch, unknown>;

/**
 * One operation under one retry budget: each attempt holds a quota slot while it sends and reads the
 * body with `readBody`; a body that breaks on the way is judged by `brokenBody`, the JSON is parsed
 * with the wire schema and then passed to `check`. A failed attempt is retried or given up on as the
 * budget decides. A generator, so that a paged read can hand on its batches as they come.
 */
async function* attempts<P extends OperationPath>(
  deps: ServiceCallDeps,
  call: ServiceCall<P>,
  readBody: BodyReader,
  check: (json: unknown) => void,
): AsyncGenerator<HitBatch, ResponseOf<P>> {
  assertValidRequest(call.path, call.body);
  const budget = startRetryBudget(retryContext(deps, call));
  for (;;) {
    let failure: unknown;
    await deps.quota.admit(call.path, call.signal);
    try {
      const answer = await sendAuthorized(deps, call);
      let json: unknown;
      try {
        const body = readBody(answer);
        json = body instanceof Promise ? await body : yield* body;
      } catch (error) {
        throw brokenBody(deps, call, answer.status, error);
      }
      const response = parseResponse(deps, call, answer.status, json);
      check(json);
      return response;
    } catch (error) {
      failure = error;
    } finally {
      deps.quota.release();
    }
    await budget.failed(failure);
  }
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
  const readWhole = async (answer: OpenAnswer): Promise<unknown> => parseJson(await answer.body.text());
  const run = attempts(deps, call, readWhole, () => undefined);
  // A body read whole yields no batch: the first step is the end.
  const end = await run.next();
  if (end.done !== true) throw new Error(`${call.path} handed on hits from a body read whole`);
  return end.value;
}

/** Whether the envelope's hits array was found and emptied while streaming (else hits were missed). */
function streamedAll(envelope: unknown, hitArray: HitArray): boolean {
  const value = valueAt(envelope, hitArray.path);
  return Array.isArray(value) && value.length === 0;
}

/**
 * A paged query: yields the hits of `hitArray` in batches as the body streams in, so a page is never
 * held whole, and returns the response with that array empty. A body that breaks on the way is judged
 * by `brokenBody`; when it is sent again, the new answer's batches start again at offset 0, for the
 * reader to skip the hits it already has. The quota slot is held while the body is read. With
 * `ahead`, the body is read ahead of its decoder and its last bytes handed over once in (read-ahead.ts).
 * @example
 * const response = yield* streamService(deps, { path: "/v3/jobs/query", body, movesCursor: false }, V3_HITS);
 */
export async function* streamService<P extends OperationPath>(
  deps: ServiceCallDeps,
  call: ServiceCall<P>,
  hitArray: HitArray,
  ahead?: ReadAheadOptions,
): AsyncGenerator<HitBatch, ResponseOf<P>> {
  return yield* attempts(
    deps,
    call,
    (answer) =>
      decodeHits(ahead === undefined ? answer.body : readAhead(answer.body, ahead), hitArray, call.path),
    (envelope) => {
      if (!streamedAll(envelope, hitArray))
        throw new Error(`${call.path} keeps no hits at ${hitArray.path.join(".")}`);
    },
  );
}
