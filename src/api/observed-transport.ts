// Counts every request that leaves the client — service operations, token requests, partition
// downloads — by operation and status, at the one place they all pass: the HTTP transport.
import type { RetryReason, RunObserver } from "../core/run-observer.js";
import type { ApiError } from "../errors.js";
import type { HttpTransport } from "./http-transport.js";

/**
 * The operation a request names: `download` for a GET (a partition link, never the link itself: it
 * carries a signature), else the path under the service's or the token issuer's base URL.
 */
function operationOf(method: string, url: string, bases: readonly string[]): string {
  if (method === "GET") return "download";
  // The longest base first: the issuer may sit under the service's URL, or the other way round.
  for (const base of [...bases].sort((a, b) => b.length - a.length)) {
    const prefix = base.replace(/\/+$/, "");
    if (url.startsWith(`${prefix}/`)) return url.slice(prefix.length).split("?")[0] as string;
  }
  return new URL(url).pathname;
}

export function observeTransport(
  http: HttpTransport,
  observer: RunObserver,
  bases: readonly string[],
): HttpTransport {
  const operation = (request: { method: string; url: string }): string =>
    operationOf(request.method, request.url, bases);
  return {
    close: () => http.close(),
    async send(request) {
      try {
        const response = await http.send(request);
        observer.requestSent(operation(request), String(response.status));
        return response;
      } catch (error) {
        if (!request.signal?.aborted) observer.requestSent(operation(request), "network");
        throw error;
      }
    },
  };
}

/** Why a request is sent again, from the error that made it fail. */
export function retryReasonOf(error: ApiError): RetryReason {
  if (error.status === 429) return "429";
  if (error.status === 401) return "token";
  if (error.status !== undefined && error.status >= 500) return "5xx";
  return "network";
}
