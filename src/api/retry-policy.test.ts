import { describe, expect, it } from "vitest";
import { ApiError, RetriesSpentError, spentRetryBudget } from "../errors.js";
import { backoffDelay, parseRetryAfter } from "./retry-policy.js";
import type { RetryPolicy } from "./retry-policy.js";
import { runWithRetries } from "./retry.js";
import { HttpStatusError } from "./http-status-error.js";
import type { Clock } from "./clock.js";

const policy: RetryPolicy = { maxAttempts: 5, baseDelayMs: 100, maxDelayMs: 1000, maxElapsedMs: 10_000 };

function fakeClock(): Clock & { slept: number[] } {
  let now = 0;
  const slept: number[] = [];
  return {
    slept,
    now: () => now,
    sleep: async (ms) => {
      slept.push(ms);
      now += ms;
    },
  };
}

describe("backoffDelay", () => {
  it("doubles the ceiling per attempt up to maxDelay, drawing uniformly below it (full jitter)", () => {
    const top = () => 0.999999;
    expect([1, 2, 3, 4, 5, 6].map((a) => backoffDelay(a, policy, top))).toEqual([
      99, 199, 399, 799, 999, 999,
    ]);
    expect(backoffDelay(3, policy, () => 0)).toBe(0);
    expect(backoffDelay(3, policy, () => 0.5)).toBe(200);
  });
});

describe("parseRetryAfter", () => {
  it("reads delta-seconds and HTTP dates", () => {
    expect(parseRetryAfter("3", 0)).toBe(3000);
    expect(parseRetryAfter(new Date(10_000).toUTCString(), 4000)).toBe(6000);
    expect(parseRetryAfter(undefined, 0)).toBeUndefined();
    expect(parseRetryAfter("soon", 0)).toBeUndefined();
  });
});

describe("runWithRetries", () => {
  const failing = (retryable: boolean) => new ApiError("boom", { operation: "/x", retryable });

  it("retries retryable errors with the backoff schedule and stops at maxAttempts", async () => {
    const clock = fakeClock();
    let calls = 0;
    const run = runWithRetries(
      async () => {
        calls += 1;
        throw failing(true);
      },
      { policy, clock, random: () => 0.5 },
    );
    await expect(run).rejects.toThrow("boom");
    expect(calls).toBe(5);
    expect(clock.slept).toEqual([50, 100, 200, 400]);
  });

  it("does not retry a non-retryable error", async () => {
    let calls = 0;
    const run = runWithRetries(
      async () => {
        calls += 1;
        throw failing(false);
      },
      { policy, clock: fakeClock(), random: () => 0.5 },
    );
    await expect(run).rejects.toThrow("boom");
    expect(calls).toBe(1);
  });

  it("waits at least Retry-After and gives up when the time budget would be passed", async () => {
    const clock = fakeClock();
    let calls = 0;
    const run = runWithRetries(
      async () => {
        calls += 1;
        throw new HttpStatusError("/x", 503, "", { retryable: true, retryAfterMs: 4000 });
      },
      { policy, clock, random: () => 0 },
    );
    const error = await run.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RetriesSpentError);
    expect((error as RetriesSpentError).cause).toBeInstanceOf(HttpStatusError);
    expect((error as RetriesSpentError).attempts).toBe(3);
    expect((error as RetriesSpentError).message).toBe(
      "/x answered HTTP 503 (gave up after 3 attempts in 8.0 s)",
    );
    expect(clock.slept).toEqual([4000, 4000]);
    expect(calls).toBe(3);
  });

  it("does not retry an operation that spent its own budget inside an outer loop", async () => {
    let inner = 0;
    let outer = 0;
    const run = runWithRetries(
      async () => {
        outer += 1;
        return runWithRetries(
          async () => {
            inner += 1;
            throw failing(true);
          },
          { policy, clock: fakeClock(), random: () => 0.5 },
        );
      },
      { policy, clock: fakeClock(), random: () => 0.5 },
    );
    const error = await run.catch((caught: unknown) => caught);
    expect(spentRetryBudget(error)).toBe(true);
    expect((error as ApiError).retryable).toBe(true);
    expect([outer, inner]).toEqual([1, 5]);
  });

  it("succeeds after transient failures", async () => {
    let calls = 0;
    const value = await runWithRetries(
      async () => {
        calls += 1;
        if (calls < 3) throw failing(true);
        return "ok";
      },
      { policy, clock: fakeClock(), random: () => 0.1 },
    );
    expect(value).toBe("ok");
  });
});
