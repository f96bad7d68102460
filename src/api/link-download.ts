// Downloads of presigned partition links: no bearer token and no quota, their own connections whose
// name resolution the download policy checks at connect time, their own byte cap and deadline, and
// retries of network errors, 5xx and 429 under the client's retry policy.
import type { LookupFunction } from "node:net";
import { createHttpTransport } from "./http-transport.js";
import type { HttpResponse, HttpTransport, HttpTransportOptions } from "./http-transport.js";
import { ForbiddenAddressError, createDownloadPolicy, guardedLookup, refuseLink } from "./download-policy.js";
import type { DownloadPolicyOptions } from "./download-policy.js";
import type { ServiceCallDeps } from "./service-operation.js";
import { parseRetryAfter } from "./retry-policy.js";
import { runWithRetries } from "./retry.js";
import { HttpStatusError } from "./http-status-error.js";
import { toNetworkError } from "./network-error.js";
import { describeUrl } from "./redact.js";
import { observeTransport, retryReasonOf } from "./observed-transport.js";

/** Partition files are larger than any page: 8 GiB and 30 minutes per download unless configured. */
const DEFAULT_DOWNLOAD = { maxBytes: 8 * 1024 ** 3, deadlineMs: 30 * 60_000 };

/**
 * The client's own: the service's address (links may point there), retry policy, clock, logger,
 * observer, and its tokens, whose values and the client secret never show in a message.
 */
type ClientParts = Pick<
  ServiceCallDeps,
  "baseUrl" | "retry" | "clock" | "random" | "logger" | "observer" | "userAgent" | "tokens"
>;

interface LinkDownloadOptions extends ClientParts {
  /** The service's and its issuer's addresses, for the request counts. */
  serviceUrls: readonly string[];
  transport: Omit<HttpTransportOptions, "maxResponseBytes" | "lookup">;
  /** Largest partition file (as sent, before decompression) and the deadline of one download. */
  limits?: { maxBytes?: number; deadlineMs?: number } | undefined;
  allowedHosts?: DownloadPolicyOptions["allowedHosts"];
  lookup?: LookupFunction | undefined;
}

interface LinkDownloader {
  download(url: string, signal?: AbortSignal): Promise<HttpResponse>;
  readonly transport: HttpTransport;
}

/**
 * @example
 * const links = createLinkDownloader({ baseUrl, serviceUrls, transport: {}, retry, clock, random, logger, observer, userAgent, tokens });
 * const response = await links.download(partition.presigned_url, signal);
 */
export function createLinkDownloader(options: LinkDownloadOptions): LinkDownloader {
  const limits = { ...DEFAULT_DOWNLOAD, ...options.limits };
  const checkLink = createDownloadPolicy({ baseUrl: options.baseUrl, allowedHosts: options.allowedHosts });
  const transport = observeTransport(
    createHttpTransport({ ...options.transport, lookup: guardedLookup(options.lookup) }),
    options.observer,
    options.serviceUrls,
  );

  async function downloadOnce(url: string, signal: AbortSignal | undefined): Promise<HttpResponse> {
    const where = `partition download ${describeUrl(url)}`;
    await checkLink(url);
    let response: HttpResponse;
    try {
      response = await transport.send({
        method: "GET",
        url,
        headers: { "user-agent": options.userAgent },
        signal,
        maxResponseBytes: limits.maxBytes,
        deadlineMs: limits.deadlineMs,
      });
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      const forbidden = forbiddenAddressIn(error);
      if (forbidden !== undefined) throw refuseLink(url, forbidden);
      throw toNetworkError(where, error, options.tokens.secrets());
    }
    if (response.status === 200) return response;
    await response.body.dump().catch(() => undefined);
    throw new HttpStatusError(where, response.status, "", {
      retryable: response.status >= 500 || response.status === 429,
      retryAfterMs: parseRetryAfter(response.headers["retry-after"], options.clock.now()),
    });
  }

  return {
    transport,
    download: (url, signal) =>
      runWithRetries(() => downloadOnce(url, signal), {
        policy: options.retry,
        clock: options.clock,
        random: options.random,
        ...(signal === undefined ? {} : { signal }),
        onRetry: (error, attempt, delayMs) => {
          options.observer.retried(retryReasonOf(error));
          options.logger.warn(
            { operation: error.operation, attempt, status: error.status, delayMs },
            "Retrying a download.",
          );
        },
      }),
  };
}

/** The forbidden address a failed download connection met, anywhere in its cause chain. */
function forbiddenAddressIn(error: unknown): ForbiddenAddressError | undefined {
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    if (cause instanceof ForbiddenAddressError) return cause;
  }
  return undefined;
}
