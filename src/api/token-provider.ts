// Access tokens by the client-credentials flow: reused until shortly before they expire, one refresh
// in flight however many requests wait, invalidated on 401 so the next request fetches a new one.
import { decodeJwt } from "jose";
import type { Logger } from "../logger.js";
import { AuthError } from "../errors.js";
import type { Clock } from "./clock.js";
import type { HttpTransport } from "./http-transport.js";
import type { RetryPolicy } from "./retry-policy.js";
import { parseRetryAfter } from "./retry-policy.js";
import { runWithRetries } from "./retry.js";
import { HttpStatusError, describeErrorBody } from "./http-status-error.js";
import { toNetworkError } from "./network-error.js";
import { redactText } from "./redact.js";
import { tokenResponseSchema } from "./wire/operations.js";

/** The spec's token lifetime, used when neither the JWT `exp` nor `expires_in` says otherwise. */
const DEFAULT_LIFETIME_MS = 3_600_000;

export interface TokenProviderOptions {
  authUrl: string;
  clientId: string;
  clientSecret: string;
  http: HttpTransport;
  clock: Clock;
  random: () => number;
  retry: RetryPolicy;
  logger: Logger;
  userAgent: string;
  /** Refresh this long before expiry, so a token never expires in flight. */
  refreshMarginMs?: number;
}

/**
 * @example
 * const tokens = createTokenProvider({ authUrl, clientId, clientSecret, http, clock, random, retry, logger, userAgent });
 * const token = await tokens.getToken(signal); // on 401: tokens.invalidate(token)
 */
export interface TokenProvider {
  getToken(signal?: AbortSignal): Promise<string>;
  /** Drops `token` if it is still the current one (several 401s on one token cause one refresh). */
  invalidate(token: string): void;
  /** Values to mask in messages: the client secret and the tokens issued so far. */
  secrets(): readonly string[];
}

interface Held {
  token: string;
  refreshAt: number;
}

function expiryOf(token: string, expiresIn: number | undefined, now: number): number {
  try {
    const { exp } = decodeJwt(token);
    if (typeof exp === "number") return exp * 1000;
  } catch {
    // Not a JWT: fall back below.
  }
  return now + (expiresIn === undefined ? DEFAULT_LIFETIME_MS : expiresIn * 1000);
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

export function createTokenProvider(options: TokenProviderOptions): TokenProvider {
  const operation = "token request";
  const margin = options.refreshMarginMs ?? 60_000;
  const issued: string[] = [];
  let held: Held | undefined;
  let pending: Promise<string> | undefined;
  const secrets = (): string[] => [options.clientSecret, ...issued];

  async function requestOnce(): Promise<string> {
    const form = new URLSearchParams({
      grant_type: "client_credentials",
      client_id: options.clientId,
      client_secret: options.clientSecret,
    });
    let response;
    try {
      response = await options.http.send({
        method: "POST",
        url: `${options.authUrl.replace(/\/+$/, "")}/oauth2/token`,
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          accept: "application/json",
          "user-agent": options.userAgent,
        },
        body: form.toString(),
      });
    } catch (error) {
      throw toNetworkError(operation, error, secrets());
    }
    const text = await response.body.text().catch((error: unknown) => {
      throw toNetworkError(operation, error, secrets());
    });
    const status = response.status;
    if (status >= 500 || status === 429) {
      const retryAfterMs = parseRetryAfter(response.headers["retry-after"], options.clock.now());
      throw new HttpStatusError(operation, status, redactText(describeErrorBody(text), secrets()), {
        retryable: true,
        retryAfterMs,
      });
    }
    if (status !== 200) {
      throw new AuthError(
        `the token issuer refused the client credentials (HTTP ${status}); check the client id and secret`,
        { operation, status },
      );
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    const parsed = tokenResponseSchema.safeParse(json);
    if (!parsed.success || parsed.data.access_token === "") {
      throw new AuthError("the token issuer answered without an access_token", { operation, status });
    }
    const token = parsed.data.access_token;
    issued.push(token);
    if (issued.length > 16) issued.shift();
    const now = options.clock.now();
    const expiresIn = parsed.data.expires_in;
    const expiresAt = expiryOf(token, expiresIn !== undefined && expiresIn > 0 ? expiresIn : undefined, now);
    held = { token, refreshAt: Math.max(now, expiresAt - margin) };
    options.logger.debug({ expiresInMs: expiresAt - now }, "Obtained an access token.");
    return token;
  }

  function refresh(): Promise<string> {
    pending ??= runWithRetries(() => requestOnce(), {
      policy: options.retry,
      clock: options.clock,
      random: options.random,
      onRetry: (error, attempt, delayMs) =>
        options.logger.warn({ attempt, status: error.status, delayMs }, "Retrying the token request."),
    }).finally(() => {
      pending = undefined;
    });
    return pending;
  }

  return {
    getToken(signal) {
      if (held !== undefined && options.clock.now() < held.refreshAt) return Promise.resolve(held.token);
      return abortable(refresh(), signal);
    },
    invalidate(token) {
      if (held?.token === token) held = undefined;
    },
    secrets,
  };
}
