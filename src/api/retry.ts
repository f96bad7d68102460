// The one retry budget of the product: retryable ApiErrors are retried with full-jitter backoff (or
// Retry-After when longer), bounded by the policy's attempts and elapsed time, and abortable. The error
// that spends the budget comes out as a RetriesSpentError, so no outer loop retries it again.
import type { ApiError } from "../errors.js";
import { isApiError, RetriesSpentError, spentRetryBudget } from "../errors.js";
import type { Clock } from "./clock.js";
import type { RetryPolicy } from "./retry-policy.js";
import { backoffDelay } from "./retry-policy.js";
import { isHttpStatusError } from "./http-status-error.js";

export interface RetryContext {
  policy: RetryPolicy;
  clock: Clock;
  random: () => number;
  signal?: AbortSignal;
  /** Called before each wait (for a warn line). */
  onRetry?: (error: ApiError, attempt: number, delayMs: number) => void;
  /** Maps the last error when retries run out (for example a 429 into quota exhaustion). */
  onGiveUp?: (error: ApiError) => unknown;
}

/** The error a spent budget ends with: the caller's mapping, or the last error marked as final. */
function giveUp(ctx: RetryContext, error: ApiError, attempts: number, started: number): unknown {
  const mapped = ctx.onGiveUp?.(error) ?? error;
  return mapped === error ? new RetriesSpentError(error, attempts, ctx.clock.now() - started) : mapped;
}

/**
 * One operation's retry budget, for loops that cannot be one promise (a paged query whose hits are
 * yielded as its body streams in). `failed` waits before the next attempt, or throws: the error
 * itself when it is not retryable, the give-up error when the budget is spent.
 * @example
 * const budget = startRetryBudget(ctx);
 * for (;;) { try { return await send(); } catch (error) { await budget.failed(error); } }
 */
interface RetryBudget {
  failed(error: unknown): Promise<void>;
}

export function startRetryBudget(ctx: RetryContext): RetryBudget {
  const started = ctx.clock.now();
  let attemptNumber = 0;
  return {
    async failed(error) {
      attemptNumber += 1;
      if (ctx.signal?.aborted) throw ctx.signal.reason;
      if (!isApiError(error) || !error.retryable || spentRetryBudget(error)) throw error;
      if (attemptNumber >= ctx.policy.maxAttempts) throw giveUp(ctx, error, attemptNumber, started);
      const retryAfter = isHttpStatusError(error) ? (error.retryAfterMs ?? 0) : 0;
      const delayMs = Math.max(backoffDelay(attemptNumber, ctx.policy, ctx.random), retryAfter);
      if (ctx.clock.now() + delayMs - started > ctx.policy.maxElapsedMs)
        throw giveUp(ctx, error, attemptNumber, started);
      ctx.onRetry?.(error, attemptNumber, delayMs);
      await ctx.clock.sleep(delayMs, ctx.signal);
    },
  };
}

/**
 * Runs `attempt` until it resolves, throws a non-retryable error, or the policy is spent.
 * @example
 * const body = await runWithRetries(() => sendOnce(), { policy, clock: systemClock, random: Math.random });
 */
export async function runWithRetries<T>(attempt: () => Promise<T>, ctx: RetryContext): Promise<T> {
  const budget = startRetryBudget(ctx);
  for (;;) {
    try {
      return await attempt();
    } catch (error) {
      await budget.failed(error);
    }
  }
}
