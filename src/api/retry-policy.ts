// The retry policy of every service call: exponential backoff with full jitter, bounded in attempts and
// in total time, and the parsing of Retry-After.

/**
 * How hard a request is retried. Attempts count every send, the first one included.
 * @example
 * const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY, maxAttempts: 8 };
 */
export interface RetryPolicy {
  /** Sends at most this many times (network errors, resets, 5xx, transient 429). */
  maxAttempts: number;
  /** The first backoff ceiling; doubles with each attempt. */
  baseDelayMs: number;
  /** No single wait exceeds this. */
  maxDelayMs: number;
  /** No retry starts after this much time since the first send. */
  maxElapsedMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 6,
  baseDelayMs: 250,
  maxDelayMs: 20_000,
  maxElapsedMs: 120_000,
};

/**
 * The wait before retry number `attempt` (1 for the first retry): full jitter, a uniform draw in
 * `[0, min(maxDelay, base * 2^(attempt-1)))`. Full jitter spreads concurrent retries best (AWS
 * architecture blog, "Exponential Backoff And Jitter").
 */
export function backoffDelay(attempt: number, policy: RetryPolicy, random: () => number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.floor(random() * ceiling);
}

/**
 * Retry-After in milliseconds: delta-seconds or an HTTP date. Undefined when absent or unreadable.
 */
export function parseRetryAfter(value: string | string[] | undefined, nowMs: number): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (text === undefined || text.trim() === "") return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(text)) return Math.round(Number(text) * 1000);
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - nowMs);
}
