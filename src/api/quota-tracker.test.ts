import { describe, expect, it } from "vitest";
import { QuotaExhaustedError } from "../errors.js";
import { QuotaTracker } from "./quota-tracker.js";

describe("QuotaTracker", () => {
  it("keeps the lowest recent value across out-of-order responses", () => {
    let now = 0;
    const quota = new QuotaTracker({ clock: { now: () => now, sleep: async () => {} }, staleAfterMs: 1000 });
    quota.observe(500);
    quota.observe(498);
    quota.observe(499); // a slower concurrent response
    expect(quota.remaining).toBe(498);
    now = 5000; // much later: the day's quota was renewed
    quota.observe(10_000);
    expect(quota.remaining).toBe(10_000);
  });

  it("refuses before sending once the remaining count minus requests in flight reaches the reserve", () => {
    const quota = new QuotaTracker({ reserve: 10 });
    quota.acquire("/v3/jobs/query"); // nothing known yet: allowed
    quota.release();
    quota.observe(11);
    quota.acquire("/v3/jobs/query"); // 11 - 0 in flight > 10: sent
    expect(() => quota.acquire("/v3/jobs/query")).toThrow(QuotaExhaustedError); // 11 - 1 in flight = 10
  });

  it("counts requests in flight against the reserve", () => {
    const quota = new QuotaTracker({ reserve: 10 });
    quota.observe(13);
    quota.acquire("/a"); // 13 > 10
    quota.acquire("/a"); // 12 > 10
    quota.acquire("/a"); // 11 > 10
    const error = (() => {
      try {
        quota.acquire("/a"); // 10 ≤ 10
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(QuotaExhaustedError);
    expect(error).toMatchObject({ code: "QUOTA_EXHAUSTED", remaining: 13, reserve: 10 });
    quota.release();
    quota.observe(12);
    expect(quota.snapshot()).toEqual({ remaining: 12, reserve: 10, inFlight: 2 });
  });

  it("stops everything once the service said the quota is gone", () => {
    const quota = new QuotaTracker();
    quota.markExhausted();
    expect(() => quota.acquire("/a")).toThrow(/0 daily requests remain/);
  });
});
