import { describe, expect, it } from "vitest";
import { estimate, formatProgress } from "./progress.js";

describe("progress", () => {
  it("estimates the time left from the records expected", () => {
    const result = estimate({
      records: 250,
      slicesDone: 1,
      slicesTotal: 10,
      expectedRecords: 1000,
      quotaRemaining: 10,
      elapsedMs: 10_000,
    });
    expect(result.rate).toBe(25);
    expect(result.etaMs).toBe(30_000);
  });

  it("falls back to slices when the total is unknown, and prints the line", () => {
    const snapshot = {
      records: 1200,
      slicesDone: 2,
      slicesTotal: 4,
      expectedRecords: undefined,
      quotaRemaining: 987,
      elapsedMs: 60_000,
    };
    expect(estimate(snapshot).etaMs).toBe(60_000);
    expect(formatProgress(snapshot)).toBe("2/4 slices · 1,200 records · 20 rec/s · quota 987 · ETA 1m 00s");
  });
});
