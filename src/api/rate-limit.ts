// Tells a short throttle (429 with a near Retry-After) from the day's quota being gone.
import { QuotaExhaustedError } from "../errors.js";
import type { QuotaTracker } from "./quota-tracker.js";
import type { RetryPolicy } from "./retry-policy.js";
import { HttpStatusError } from "./http-status-error.js";

/**
 * A 429 is taken as the day's quota being gone, and not retried, when the last count the service
 * reported was 0, when no Retry-After comes with it, or when Retry-After reaches past the retry
 * budget (a wait until the quota renews). Otherwise it is a short throttle: wait Retry-After and resend.
 * @example
 * throw classifyRateLimit(quota, policy, "/v3/jobs/query", 1000, "rate limited"); // retryable HttpStatusError
 */
export function classifyRateLimit(
  quota: QuotaTracker,
  retry: RetryPolicy,
  path: string,
  retryAfterMs: number | undefined,
  detail: string,
): Error {
  const remaining = quota.remaining;
  if (isQuotaGone(quota, retry, retryAfterMs)) {
    quota.markExhausted();
    return new QuotaExhaustedError(
      `the daily request quota is exhausted (${path} answered HTTP 429); resume when the quota renews`,
      remaining,
      quota.reserve,
      { cause: new HttpStatusError(path, 429, detail, { retryable: false, retryAfterMs }) },
    );
  }
  return new HttpStatusError(path, 429, detail, { retryable: true, retryAfterMs });
}

/** Whether a 429 with this Retry-After means the day's quota is gone rather than a short throttle. */
export function isQuotaGone(
  quota: QuotaTracker,
  retry: RetryPolicy,
  retryAfterMs: number | undefined,
): boolean {
  const remaining = quota.remaining;
  return (
    retryAfterMs === undefined ||
    (remaining !== undefined && remaining <= 0) ||
    retryAfterMs > retry.maxElapsedMs
  );
}
