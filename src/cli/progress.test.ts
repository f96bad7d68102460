import { PassThrough, Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger } from "../logger.js";
import { chooseProgressInterval, estimate, formatProgress, startProgress } from "./progress.js";
import type { ProgressTimers } from "./progress.js";
import type { RunProgress } from "../pipeline/run/run-options.js";

/** Timers that fire only when the test says: the interval each was set with, and a tick. */
function manualTimers(): ProgressTimers & { intervals: number[]; tick(): void; cleared: number } {
  const callbacks = new Map<number, () => void>();
  const intervals: number[] = [];
  let next = 0;
  const timers = {
    intervals,
    cleared: 0,
    setInterval(callback: () => void, ms: number): unknown {
      intervals.push(ms);
      callbacks.set(next, callback);
      return next++;
    },
    clearInterval(handle: unknown): void {
      if (callbacks.delete(handle as number)) timers.cleared += 1;
    },
    tick(): void {
      for (const callback of callbacks.values()) callback();
    },
  };
  return timers;
}

function logLines(): { log: ReturnType<typeof createLogger>; lines(): Record<string, unknown>[] } {
  const chunks: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString("utf8"));
      done();
    },
  });
  return {
    log: createLogger({ level: "info", destination }),
    lines: () =>
      chunks
        .join("")
        .split("\n")
        .filter((line) => line !== "")
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

const midRun: RunProgress = {
  records: 1200,
  slicesDone: 2,
  slicesTotal: 4,
  expectedRecords: undefined,
  quotaRemaining: 987,
  concurrency: 3,
  elapsedMs: 60_000,
};

describe("progress", () => {
  it("estimates the time left from the records expected", () => {
    const result = estimate({
      ...midRun,
      records: 250,
      slicesDone: 1,
      slicesTotal: 10,
      expectedRecords: 1000,
      elapsedMs: 10_000,
    });
    expect(result.rate).toBe(25);
    expect(result.etaMs).toBe(30_000);
  });

  it("falls back to slices when the total is unknown, and prints the line", () => {
    expect(estimate(midRun).etaMs).toBe(60_000);
    expect(formatProgress(midRun)).toBe("2/4 slices · 1,200 records · 20 rec/s · quota 987 · ETA 1m 00s");
  });

  it("logs a line at the interval without a terminal: slices, records, rate, quota, ETA", () => {
    const timers = manualTimers();
    const { log, lines } = logLines();
    const stream = new PassThrough();
    let snapshot = { ...midRun, slicesDone: 0, records: 0, elapsedMs: 0 };
    const progress = startProgress(() => snapshot, { tty: false, stream, log, intervalMs: 45_000, timers });
    expect(timers.intervals).toEqual([45_000]);
    expect(lines()).toEqual([]);
    snapshot = midRun;
    timers.tick();
    progress.stop();
    timers.tick();
    expect(timers.cleared).toBe(1);
    expect(lines()).toHaveLength(1);
    expect(lines()[0]).toMatchObject({
      msg: "Progress.",
      slicesDone: 2,
      slicesTotal: 4,
      records: 1200,
      rate: 20,
      quotaRemaining: 987,
      concurrency: 3,
      etaMs: 60_000,
      line: "2/4 slices · 1,200 records · 20 rec/s · quota 987 · ETA 1m 00s",
    });
    expect(stream.read()).toBeNull();
  });

  it("with a quota ledger, shows the fleet's count and this run's claim and spending beside the service's count", () => {
    const timers = manualTimers();
    const { log, lines } = logLines();
    const ledger = { remaining: 41_230, claim: 3380, reserved: 1500, spent: 1212 };
    const progress = startProgress(() => ({ ...midRun, ledger }), {
      tty: false,
      stream: new PassThrough(),
      log,
      intervalMs: 30_000,
      timers,
    });
    timers.tick();
    progress.stop();
    const line =
      "2/4 slices · 1,200 records · 20 rec/s · quota 987 · ledger 41,230 left, claim 3,380, spent 1,212 of 1,500 reserved · ETA 1m 00s";
    expect(lines()[0]).toMatchObject({ msg: "Progress.", ledger, line });
    // Before the plan and the ledger's first answer: what is known so far.
    expect(
      formatProgress({
        ...midRun,
        ledger: { remaining: undefined, claim: undefined, reserved: 0, spent: 0 },
      }),
    ).toBe("2/4 slices · 1,200 records · 20 rec/s · quota 987 · ledger, spent 0 of 0 reserved · ETA 1m 00s");
  });

  it("starts no timer when progress is off, on a terminal or not", () => {
    for (const tty of [false, true]) {
      const timers = manualTimers();
      const { log, lines } = logLines();
      const stream = new PassThrough();
      startProgress(() => midRun, { tty, stream, log, intervalMs: undefined, timers }).stop();
      expect(timers.intervals).toEqual([]);
      expect(lines()).toEqual([]);
      expect(stream.read()).toBeNull();
    }
  });

  it("redraws the terminal's line twice a second, whatever the log interval", () => {
    const timers = manualTimers();
    const { log, lines } = logLines();
    const stream = new PassThrough();
    const progress = startProgress(() => midRun, { tty: true, stream, log, intervalMs: 30_000, timers });
    expect(timers.intervals).toEqual([500]);
    timers.tick();
    progress.stop();
    expect(String(stream.read())).toBe(`\r\u001b[2K${formatProgress(midRun)}\r\u001b[2K`);
    expect(lines()).toEqual([]);
  });

  it("takes --progress-interval over the pipeline's limits.progress_interval; off and 0 turn it off", () => {
    expect(chooseProgressInterval(undefined, "30s")).toBe(30_000);
    expect(chooseProgressInterval(undefined, "5m")).toBe(300_000);
    expect(chooseProgressInterval(undefined, "off")).toBeUndefined();
    expect(chooseProgressInterval(undefined, 0)).toBeUndefined();
    expect(chooseProgressInterval(undefined, "0s")).toBeUndefined();
    expect(chooseProgressInterval("10s", "5m")).toBe(10_000);
    expect(chooseProgressInterval("off", "30s")).toBeUndefined();
    expect(chooseProgressInterval("0", "30s")).toBeUndefined();
    expect(() => chooseProgressInterval("30", "30s")).toThrow(
      '--progress-interval "30": expected a duration such as 10s, 30s, 5m, or off',
    );
    expect(() => chooseProgressInterval("1d", "30s")).toThrow("--progress-interval");
  });
});
