// A run without a terminal (cron, Kubernetes) logs a progress line at a fixed interval: slices done
// and total, records, rate, quota left and ETA. Through the CLI against the emulator, with the
// progress timer the test's own: the run is held at a request once two slices are in (a proxy in
// front of the emulator), the timer ticks, and the line logged then says what the run had done.
import { join } from "node:path";
import { expect } from "vitest";
import type { ProgressTimers } from "../src/cli/progress.js";
import { runCli } from "./support/cli-harness.js";
import type { GateProxy } from "./support/gate-proxy.js";
import { jobsPipelineYaml } from "./support/jobs-pipeline.js";
import { readRunState } from "./support/run-state.js";
import { gateProxyFixture, useEmulator } from "./support/use-emulator.js";

const it = useEmulator().extend<{ proxy: GateProxy }>({ proxy: gateProxyFixture() });

/** Timers that fire only when the test ticks them; the intervals they were set with. */
function manualTimers(): ProgressTimers & { intervals: number[]; tick(): void } {
  const callbacks = new Map<number, () => void>();
  const intervals: number[] = [];
  return {
    intervals,
    setInterval(callback, ms) {
      intervals.push(ms);
      callbacks.set(intervals.length, callback);
      return intervals.length;
    },
    clearInterval: (handle) => void callbacks.delete(handle as number),
    tick: () => callbacks.forEach((callback) => callback()),
  };
}

it("logs slices, records, rate, quota and ETA at the pipeline's interval", async ({
  service,
  workspace,
  proxy,
}) => {
  const out = join(workspace.dir, "headless");
  const file = await workspace.write(
    "headless.yaml",
    jobsPipelineYaml({ name: "headless", out, concurrency: 1, progressInterval: "45s" }),
  );
  const committed = async (): Promise<number> => Object.keys((await readRunState(out))?.slices ?? {}).length;
  // One slice at a time: the first request after two slices are in is the third slice's first page.
  const gate = proxy.holdWhen(async () => (await committed()) >= 2);
  const timers = manualTimers();
  const env = { ...service.env, MDQ_BASE_URL: proxy.url, MDQ_AUTH_URL: proxy.url };
  const running = runCli(["run", file], { env, progressTimers: timers });
  await gate.reached;
  timers.tick();
  gate.release();
  const result = await running;
  expect(result.code, result.stderr).toBe(0);
  expect(timers.intervals).toEqual([45_000]);

  const state = await readRunState(out);
  const slices = Object.values(state?.slices ?? {}) as { read: number; start: string }[];
  const firstTwo = slices.sort((a, b) => a.start.localeCompare(b.start)).slice(0, 2);
  const lines = result.logs.filter((line) => line.msg === "Progress.");
  expect(lines).toHaveLength(1);
  const line = lines[0] ?? {};
  expect(line).toMatchObject({
    level: "info",
    pipeline: "headless",
    slicesDone: 2,
    slicesTotal: 6,
    records: firstTwo[0]!.read + firstTwo[1]!.read,
    concurrency: 1,
  });
  expect(line.quotaRemaining).toBeLessThan(service.emulator.options.quota);
  expect(line.rate).toBeGreaterThan(0);
  expect(line.etaMs).toBeGreaterThan(0);
  expect(line.line).toMatch(/^2\/6 slices · [\d,]+ records · [\d,]+ rec\/s · quota [\d,]+ · ETA \d/);
});

it("takes --progress-interval over the pipeline's, logs nothing when off, and refuses a bare number", async ({
  service,
  workspace,
}) => {
  const out = join(workspace.dir, "flagged");
  const file = await workspace.write(
    "flagged.yaml",
    jobsPipelineYaml({ name: "flagged", out, endHour: 1, progressInterval: "45s" }),
  );
  const every10s = manualTimers();
  const flagged = await runCli(["run", file, "--progress-interval", "10s"], {
    env: service.env,
    progressTimers: every10s,
  });
  expect(flagged.code, flagged.stderr).toBe(0);
  expect(every10s.intervals).toEqual([10_000]);

  const off = manualTimers();
  const quiet = await runCli(["run", file, "--force", "--progress-interval", "off"], {
    env: service.env,
    progressTimers: off,
  });
  expect(quiet.code, quiet.stderr).toBe(0);
  expect(off.intervals).toEqual([]);

  const before = service.emulator.requestCount();
  const refused = await runCli(["run", file, "--progress-interval", "30"], { env: service.env });
  expect(refused.code).toBe(2);
  expect(refused.stderr).toContain(
    '--progress-interval "30": expected a duration such as 10s, 30s, 5m, or off',
  );
  expect(service.emulator.requestCount()).toBe(before);

  const bare = await workspace.write(
    "bare.yaml",
    jobsPipelineYaml({ name: "bare", out, endHour: 1, progressInterval: "30" }),
  );
  const invalid = await runCli(["run", bare], { env: service.env });
  expect(invalid.code).toBe(2);
  expect(invalid.stderr).toMatch(
    /bare\.yaml:\d+:\d+: limits\.progress_interval: 30: expected a duration such as 10s, 30s, 5m, or off/,
  );
  expect(service.emulator.requestCount()).toBe(before);
});
