import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { estimateRunTime, PLANNING_RATE_RECORDS_PER_S, STARTUP_ROUND_TRIPS } from "./plan-eta.js";

describe("plan's estimate of the run's time", () => {
  it("is the longest lane of round trips times the latency, plus the start", () => {
    const even = estimateRunTime({
      sliceRequests: [10, 10, 10, 10],
      concurrency: 2,
      latencyMs: 150,
      records: 400,
    });
    expect(even).toEqual({ seconds: (20 + STARTUP_ROUND_TRIPS) * 0.15, boundBy: "latency", roundTrips: 22 });
    // One large slice is waited for whatever the concurrency: 30 requests in a row, not 45 / 4.
    const uneven = estimateRunTime({
      sliceRequests: [30, 5, 5, 5],
      concurrency: 4,
      latencyMs: 100,
      records: 10,
    });
    expect(uneven?.roundTrips).toBe(30 + STARTUP_ROUND_TRIPS);
    // Fewer slices than lanes: the lanes left empty do not divide the time.
    expect(
      estimateRunTime({ sliceRequests: [8], concurrency: 4, latencyMs: 100, records: 1 })?.roundTrips,
    ).toBe(10);
  });

  it("is bound by encoding when the records at the planning rate take longer than the round trips", () => {
    const records = 2_500_000;
    expect(estimateRunTime({ sliceRequests: [2500], concurrency: 1, latencyMs: 1, records })).toMatchObject({
      seconds: records / PLANNING_RATE_RECORDS_PER_S,
      boundBy: "encoding",
    });
    expect(
      estimateRunTime({ sliceRequests: [1], concurrency: 1, latencyMs: undefined, records: 50_000 })?.seconds,
    ).toBe(2);
    expect(
      estimateRunTime({ sliceRequests: [1], concurrency: 1, latencyMs: undefined, records: undefined }),
    ).toBeUndefined();
  });

  it("lies between the total divided by the concurrency and the total, never below the largest slice", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 500 }), { minLength: 1, maxLength: 60 }),
        fc.integer({ min: 1, max: 64 }),
        (sliceRequests, concurrency) => {
          const estimate = estimateRunTime({
            sliceRequests,
            concurrency,
            latencyMs: 1000,
            records: undefined,
          });
          const lane = (estimate?.roundTrips ?? 0) - STARTUP_ROUND_TRIPS;
          const total = sliceRequests.reduce((sum, requests) => sum + requests, 0);
          expect(lane).toBeGreaterThanOrEqual(Math.ceil(total / concurrency));
          expect(lane).toBeGreaterThanOrEqual(Math.max(...sliceRequests));
          expect(lane).toBeLessThanOrEqual(total);
          expect(estimate?.seconds).toBe(lane + STARTUP_ROUND_TRIPS);
        },
      ),
    );
  });
});
