// Access tokens by the client-credentials flow: reused until shortly before they expire, one refresh
// in flight however many requests wait, invalidated on 401 so the next request fetches a new one. A
// failed token request is not retried here: it uses up an attempt of the operation that needed the
// token (service-call.ts), so one retry budget covers both.
import { decodeJwt } from "jose";
import type { Logger } from "../logger.js";
import { AuthError } from "../errors.js";
import { whenAborted } from "../core/when-aborted.js";
import type { Clock } from "./clock.js";
import type { HttpTransport } from "./http-transport.js";
import { parseRetryAfter } from "./retry-policy.js";
import { HttpStatusError, describeErrorBody } from "./http-status-error.js";
import { toNetworkError } from "./network-error.js";
import { describeUrl } from "./redact.js";
import { tokenResponseSchema } from "./wire/operations.js";

/** The spec's token lifetime, used when neither the JWT `exp` nor `expires_in` says otherwise. */
const DEFAULT_LIFETIME_MS = 3_600_000;

interface TokenProviderOptions {
  authUrl: string;
  clientId: string;
  clientSecret: string;
  http: HttpTransport;
  clock: Clock;
  logger: Logger;
  userAgent: string;
}

/**
 * @example
 * const tokens = createTokenProvider({ authUrl, clientId, clientSecret, http, clock, logger, userAgent });
 * const token = await tokens.getToken(signal); // on 401: tokens.invalidate(token)
 */
export interface TokenProvider {
  getToken(signal?: AbortSignal): Promise<string>;
  /** Drops `token` if it is still the current one (several 401s on one token cause one refresh). */
  invalidate(token: string): void;
  /** Values to mask in messages: the client secret and the tokens issued so far. */
  secrets(): readonly string[];
  /** The issuer's address without credentials or query, for messages. */
  readonly host: string;
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
  return new Promise<T>((resolve, reject) => {
    const stopFollowing = whenAborted(signal, () => reject(signal.reason));
    promise.then(resolve, reject).finally(stopFollowing);
  });
}

export function createTokenProvider(options: TokenProviderOptions): TokenProvider {
  const operation = "token request";
  // Refreshed this long before expiry, so a token never expires in flight.
  const margin = 60_000;
  const issued: string[] = [];
  let held: Held | undefined;
  let pending: Promise<string> | undefined;
  const secrets = (): string[] => [options.clientSecret, ...issued];

  async function requestOnce(signal: AbortSignal): Promise<string> {
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
        signal,
      });
    } catch (error) {
      throw toNetworkError(operation, error, secrets());
    }
    const status = response.status;
    const text = await (status === 200 ? response.body.text() : response.body.excerpt(16 * 1024)).catch(
      (error: unknown) => {
        throw toNetworkError(operation, error, secrets());
      },
    );
    if (status >= 500 || status === 429) {
      const retryAfterMs = parseRetryAfter(response.headers["retry-after"], options.clock.now());
      throw new HttpStatusError(operation, status, describeErrorBody(text, secrets()), {
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

  // The shared request is cancelled only when every caller waiting on it has given up.
  let waiting = 0;
  let cancel = new AbortController();
  function refresh(): Promise<string> {
    if (pending === undefined) {
      cancel = new AbortController();
      pending = requestOnce(cancel.signal).finally(() => {
        pending = undefined;
      });
    }
    return pending;
  }

  function awaitRefresh(signal: AbortSignal | undefined): Promise<string> {
    const shared = refresh();
    const owner = cancel;
    waiting += 1;
    return abortable(shared, signal).finally(() => {
      waiting -= 1;
      if (waiting === 0 && signal?.aborted === true) owner.abort(signal.reason);
    });
  }

  return {
    getToken(signal) {
      if (held !== undefined && options.clock.now() < held.refreshAt) return Promise.resolve(held.token);
      return awaitRefresh(signal);
    },
    invalidate(token) {
      if (held?.token === token) held = undefined;
    },
    secrets,
    host: describeUrl(options.authUrl),
  };
}
