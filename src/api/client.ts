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
import { DEFAULT_PARTITION_BOUNDS } from "../decoding/partition-records.js";
import type { PartitionBounds } from "../decoding/partition-records.js";
import type { DownloadPolicyOptions } from "./download-policy.js";
import { QuotaTracker } from "./quota-tracker.js";
import { AdaptiveConcurrency } from "./adaptive-concurrency.js";
import { RequestGate } from "./request-gate.js";
import type { RetryPolicy } from "./retry-policy.js";
import { DEFAULT_RETRY_POLICY } from "./retry-policy.js";
import { createTokenProvider } from "./token-provider.js";
import type { RequestOf, ResponseOf, ServiceCallDeps } from "./service-operation.js";
import { callService, streamService } from "./service-call.js";
import type { ReadAheadOptions } from "./read-ahead.js";
import type { HitBatch } from "../decoding/hit-stream.js";
import type { HitArray } from "../decoding/hit-array.js";
import { NO_OBSERVER } from "../core/run-observer.js";
import type { QuotaGate } from "../core/quota-gate.js";
import type { RunObserver } from "../core/run-observer.js";
import { observeTransport } from "./observed-transport.js";
import { createLinkDownloader } from "./link-download.js";
import { deprecationWarner } from "./deprecated-operations.js";

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
  /** Most requests waiting for the service's answer at once; fewer while it pushes back. Default 4. */
  concurrency?: number;
  /** Tests inject these so that nothing sleeps. */
  clock?: Clock;
  /** Milliseconds on a monotonic clock, for round trips (adaptive concurrency); default `performance.now`. */
  roundTripClock?: () => number;
  random?: () => number;
  dispatcher?: HttpTransportOptions["dispatcher"];
  /** The download connections' name resolution, checked by the download policy; tests inject it. */
  downloadLookup?: LookupFunction;
  /** Told of every request, retry and reported quota (the run's metrics). */
  observer?: RunObserver;
  /** The run's share of a fleet's daily quota (the quota ledger); absent, the run is alone. */
  quotaGate?: QuotaGate;
}

export interface CallOptions {
  signal?: AbortSignal;
  /**
   * False for requests that move a server-side cursor (scroll continuations): a 2xx whose body breaks
   * is then not resent but fails with code RESPONSE_LOST. Default true.
   */
  idempotent?: boolean;
  /**
   * Paged queries: read the body ahead of its hits' decoder and hand over its last bytes as soon as
   * it has all come in (read-ahead.ts), so that the next page can be asked for early.
   */
  readAhead?: ReadAheadOptions;
}

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
  /**
   * A paged query: yields the hits of `hits` (where the operation keeps them) in batches as the body
   * streams in, so a page is never held whole, and returns the response with that array empty. A
   * resent request yields its hits from offset 0 again.
   */
  stream<P extends OperationPath>(
    path: P,
    body: RequestOf<P>,
    hits: HitArray,
    options?: CallOptions,
  ): AsyncGenerator<HitBatch, ResponseOf<P>>;
  /** Resolves once the client holds an access token: the service's issuer has answered. */
  authenticated(signal?: AbortSignal): Promise<void>;
  /** GETs a presigned download link (no bearer token, not counted against the quota), with retries. */
  download(url: string, options?: CallOptions): Promise<HttpResponse>;
  readonly quota: QuotaTracker;
  /** The requests let wait for an answer at once now, and the round trips measured so far. */
  readonly gate: Pick<RequestGate, "limit" | "latency">;
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

export function createServiceClient(options: ServiceClientOptions): ServiceClient {
  const logger = (options.logger ?? createSilentLogger()).child({ component: "api" });
  const clock = options.clock ?? systemClock;
  const random = options.random ?? Math.random;
  const retry: RetryPolicy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
  const userAgent = options.userAgent ?? "mdq-export/0.1.0";
  const observer = options.observer ?? NO_OBSERVER;
  // The service's and the links' connections are made alike; only the byte caps differ.
  const transport = {
    timeouts: options.timeouts,
    connections: options.connections,
    dispatcher: options.dispatcher,
  };
  const serviceUrls = [options.baseUrl, options.authUrl];
  const http = observeTransport(
    createHttpTransport({ ...transport, maxResponseBytes: options.maxResponseBytes }),
    observer,
    serviceUrls,
  );
  const quota = new QuotaTracker({
    reserve: options.quotaReserve,
    clock,
    ...(options.quotaGate === undefined ? {} : { gate: options.quotaGate }),
  });
  // Round trips are real time even when a test's clock makes retry waits instant.
  const roundTripClock = options.roundTripClock ?? (() => performance.now());
  const adaptive = new AdaptiveConcurrency({
    max: options.concurrency ?? 4,
    now: roundTripClock,
    onChange: (limit) => observer.concurrencyChanged(limit),
  });
  observer.concurrencyChanged(adaptive.limit);
  const gate = new RequestGate(adaptive, roundTripClock);
  // The issuer and the credentials as the options name them; the client's own transport and clock.
  const tokens = createTokenProvider({ ...options, http, clock, logger, userAgent });
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
    gate,
  };
  // Links get their own connections, whose name resolution is checked again at connect time.
  const links = createLinkDownloader({
    ...deps,
    serviceUrls,
    transport,
    limits: options.download,
    allowedHosts: options.downloadHosts,
    lookup: options.downloadLookup,
  });
  const warnIfDeprecated = deprecationWarner(logger);
  const serviceCall = <P extends OperationPath>(path: P, body: RequestOf<P>, callOptions: CallOptions) => {
    warnIfDeprecated(path);
    return { path, body, signal: callOptions.signal, movesCursor: callOptions.idempotent === false };
  };

  return {
    call: (path, body, callOptions = {}) => callService(deps, serviceCall(path, body, callOptions)),
    stream: (path, body, hits, callOptions = {}) =>
      streamService(deps, serviceCall(path, body, callOptions), hits, callOptions.readAhead),
    authenticated: async (signal) => void (await tokens.getToken(signal)),
    download: (url, callOptions = {}) => links.download(url, callOptions.signal),
    quota,
    gate,
    clock,
    random,
    retryPolicy: retry,
    partitionBounds: { ...DEFAULT_PARTITION_BOUNDS, ...options.partitions },
    logger,
    observer,
    secrets: () => tokens.secrets(),
    close: async () => {
      await Promise.all([http.close(), links.transport.close()]);
    },
  };
}
