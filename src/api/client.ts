// The service client: one per run, holding the access token, the HTTP pools, the retry policy and the
// quota tracker. Requests to the service go through one transport, downloads through another whose
// connections check the addresses they are about to use.
import type { LookupFunction } from "node:net";
import type { Logger } from "../logger.js";
import { createSilentLogger } from "../logger.js";
import type { OperationPath } from "./wire/operations.js";
import type { Clock } from "./clock.js";
import { systemClock } from "./clock.js";
import type { HttpResponse, HttpTimeouts } from "./http-transport.js";
import { createHttpTransport } from "./http-transport.js";
import type { HttpTransportOptions } from "./http-transport.js";
import { ForbiddenAddressError, createDownloadPolicy, guardedLookup, refuseLink } from "./download-policy.js";
import { DEFAULT_PARTITION_BOUNDS } from "./paging/partition-records.js";
import type { PartitionBounds } from "./paging/partition-records.js";
import type { DownloadPolicyOptions } from "./download-policy.js";
import { QuotaTracker } from "./quota-tracker.js";
import type { RetryPolicy } from "./retry-policy.js";
import { DEFAULT_RETRY_POLICY, parseRetryAfter } from "./retry-policy.js";
import { createTokenProvider } from "./token-provider.js";
import type { RequestOf, ResponseOf, ServiceCallDeps } from "./service-call.js";
import { callService } from "./service-call.js";
import { runWithRetries } from "./retry.js";
import { HttpStatusError } from "./http-status-error.js";
import { toNetworkError } from "./network-error.js";
import { describeUrl } from "./redact.js";
import type { HitConsumer } from "./paging/hit-stream.js";
import { NO_OBSERVER } from "../core/run-observer.js";
import type { RunObserver } from "../core/run-observer.js";
import { observeTransport, retryReasonOf } from "./observed-transport.js";

export interface ServiceClientOptions {
  baseUrl: string;
  /** The token issuer; `/oauth2/token` is appended. */
  authUrl: string;
  clientId: string;
  clientSecret: string;
  logger?: Logger;
  /** Daily requests to keep in hand; requests are refused once only this many remain. */
  quotaReserve?: number;
  timeouts?: Partial<HttpTimeouts>;
  /** Largest API response body (pages, token, batch status), in bytes. */
  maxResponseBytes?: number;
  /** Largest partition file (as sent, before decompression) and the deadline of one download. */
  download?: { maxBytes?: number; deadlineMs?: number };
  /** Hosts presigned links may name (see download-policy.ts); any host when undefined. */
  downloadHosts?: DownloadPolicyOptions["allowedHosts"];
  /** Bounds on decoding partition files. */
  partitions?: Partial<PartitionBounds>;
  retry?: Partial<RetryPolicy>;
  userAgent?: string;
  /** Sockets per origin. */
  connections?: number;
  /** Tests inject these so that nothing sleeps. */
  clock?: Clock;
  random?: () => number;
  dispatcher?: HttpTransportOptions["dispatcher"];
  /** The download connections' name resolution, checked by the download policy; tests inject it. */
  downloadLookup?: LookupFunction;
  /** Told of every request, retry and reported quota (the run's metrics). */
  observer?: RunObserver;
}

export interface CallOptions {
  signal?: AbortSignal;
  /**
   * False for requests that move a server-side cursor (scroll continuations): a 2xx whose body breaks
   * is then not resent but fails with code RESPONSE_LOST. Default true.
   */
  idempotent?: boolean;
  /**
   * Paged queries: receives the hits in batches as the body streams in, so a page is never held
   * whole; the response then comes back with its hits array empty.
   */
  onHits?: HitConsumer;
}

/** Partition files are larger than any page: 8 GiB and 30 minutes per download unless configured. */
const DEFAULT_DOWNLOAD = { maxBytes: 8 * 1024 ** 3, deadlineMs: 30 * 60_000 };

/**
 * One client, one quota.
 * @example
 * const client = createServiceClient({ baseUrl, authUrl, clientId, clientSecret, logger, quotaReserve: 100 });
 * const res = await client.call("/v3/jobs/mappings", {});
 * res.data.fields.map((f) => f.name);
 * await client.close();
 */
export interface ServiceClient {
  /** Validates `body` locally, sends it, and returns the response parsed by the operation's wire schema. */
  call<P extends OperationPath>(path: P, body: RequestOf<P>, options?: CallOptions): Promise<ResponseOf<P>>;
  /** GETs a presigned download link (no bearer token, not counted against the quota), with retries. */
  download(url: string, options?: CallOptions): Promise<HttpResponse>;
  readonly quota: QuotaTracker;
  readonly clock: Clock;
  readonly random: () => number;
  readonly retryPolicy: RetryPolicy;
  readonly partitionBounds: PartitionBounds;
  readonly logger: Logger;
  readonly observer: RunObserver;
  /** Values that must never be shown: the client secret and the tokens issued so far. */
  secrets(): readonly string[];
  close(): Promise<void>;
}

/** The v2 operation replacing each deprecated v1 logs operation. */
const V1_REPLACEMENTS: Readonly<Record<string, string>> = {
  "/v1/logs/scroll": "/v2/logs/scroll",
  "/v1/logs/batch": "/v2/logs/batch",
  "/v1/logs/batch/urls": "/v2/logs/batch/status",
  "/v1/logs/batch/status": "/v2/logs/batch/status",
};

export function createServiceClient(options: ServiceClientOptions): ServiceClient {
  const logger = (options.logger ?? createSilentLogger()).child({ component: "api" });
  const clock = options.clock ?? systemClock;
  const random = options.random ?? Math.random;
  const retry: RetryPolicy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
  const userAgent = options.userAgent ?? "mdq-export/0.1.0";
  const observer = options.observer ?? NO_OBSERVER;
  const http = observeTransport(
    createHttpTransport({
      timeouts: options.timeouts,
      maxResponseBytes: options.maxResponseBytes,
      connections: options.connections,
      dispatcher: options.dispatcher,
    }),
    observer,
    [options.baseUrl, options.authUrl],
  );
  // Links get their own connections, whose name resolution is checked again at connect time.
  const downloads = observeTransport(
    createHttpTransport({
      timeouts: options.timeouts,
      connections: options.connections,
      dispatcher: options.dispatcher,
      lookup: guardedLookup(options.downloadLookup),
    }),
    observer,
    [options.baseUrl, options.authUrl],
  );
  const quota = new QuotaTracker({ reserve: options.quotaReserve, clock });
  const tokens = createTokenProvider({
    authUrl: options.authUrl,
    clientId: options.clientId,
    clientSecret: options.clientSecret,
    http,
    clock,
    logger,
    userAgent,
  });
  const deps: ServiceCallDeps = {
    baseUrl: options.baseUrl,
    http,
    tokens,
    quota,
    retry,
    clock,
    random,
    logger,
    userAgent,
    observer,
  };
  let warnedDeprecated = false;
  const download = { ...DEFAULT_DOWNLOAD, ...options.download };
  const checkLink = createDownloadPolicy({ baseUrl: options.baseUrl, allowedHosts: options.downloadHosts });

  async function downloadOnce(url: string, signal: AbortSignal | undefined): Promise<HttpResponse> {
    const where = `partition download ${describeUrl(url)}`;
    await checkLink(url);
    let response: HttpResponse;
    try {
      response = await downloads.send({
        method: "GET",
        url,
        headers: { "user-agent": userAgent },
        signal,
        maxResponseBytes: download.maxBytes,
        deadlineMs: download.deadlineMs,
      });
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      const forbidden = forbiddenAddressIn(error);
      if (forbidden !== undefined) throw refuseLink(url, forbidden);
      throw toNetworkError(where, error, tokens.secrets());
    }
    if (response.status === 200) return response;
    await response.body.dump().catch(() => undefined);
    throw new HttpStatusError(where, response.status, "", {
      retryable: response.status >= 500 || response.status === 429,
      retryAfterMs: parseRetryAfter(response.headers["retry-after"], clock.now()),
    });
  }

  return {
    call(path, body, callOptions = {}) {
      const replacement = V1_REPLACEMENTS[path];
      if (replacement !== undefined && !warnedDeprecated) {
        warnedDeprecated = true;
        logger.warn(
          { operation: path, replacement },
          "The v1 logs endpoints are deprecated since 2026-03-01; migrate to the v2 logs endpoints.",
        );
      }
      return callService(deps, {
        path,
        body,
        signal: callOptions.signal,
        movesCursor: callOptions.idempotent === false,
        onHits: callOptions.onHits,
      });
    },
    download(url, callOptions = {}) {
      return runWithRetries(() => downloadOnce(url, callOptions.signal), {
        policy: retry,
        clock,
        random,
        signal: callOptions.signal,
        onRetry: (error, attempt, delayMs) => {
          observer.retried(retryReasonOf(error));
          logger.warn(
            { operation: error.operation, attempt, status: error.status, delayMs },
            "Retrying a download.",
          );
        },
      });
    },
    quota,
    clock,
    random,
    retryPolicy: retry,
    partitionBounds: { ...DEFAULT_PARTITION_BOUNDS, ...options.partitions },
    logger,
    observer,
    secrets: () => tokens.secrets(),
    close: async () => {
      await Promise.all([http.close(), downloads.close()]);
    },
  };
}

/** The forbidden address a failed download connection met, anywhere in its cause chain. */
function forbiddenAddressIn(error: unknown): ForbiddenAddressError | undefined {
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    if (cause instanceof ForbiddenAddressError) return cause;
  }
  return undefined;
}
