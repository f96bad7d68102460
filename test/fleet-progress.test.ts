// The progress line of a run sharing the quota through the ledger: beside the service's count it shows
// the ledger's count of what the fleet has left and this run's claim, reserved and spent requests.
// Through the CLI against the emulator and a real PostgreSQL, the progress timer the test's own: the
// run is held at a request once two slices are in, the timer ticks, and the line says what it knew.
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import type { ProgressTimers } from "../src/cli/progress.js";
import { runCli, startTestService } from "./support/cli-harness.js";
import { startGateProxy } from "./support/gate-proxy.js";
import { readRunState } from "./support/run-state.js";
import { freshLedgerUrl, quotaRequests, useFleetFloor, writeFleetPipeline } from "./support/fleet.js";

const floor = useFleetFloor("fleet-progress");

/** Timers that fire only when the test ticks them. */
function manualTimers(): ProgressTimers & { tick(): void } {
  const callbacks = new Map<number, () => void>();
  return {
    setInterval(callback) {
      callbacks.set(callbacks.size + 1, callback);
      return callbacks.size;
    },
    clearInterval: (handle) => void callbacks.delete(handle as number),
    tick: () => callbacks.forEach((callback) => callback()),
  };
}

describe("the progress line with a quota ledger", () => {
  test("shows the fleet's count in the ledger and this run's claim, reserved and spent requests", async () => {
    const service = await startTestService({ seed: 11, density: 40, quota: 5000 });
    const proxy = await startGateProxy(service.emulator.url);
    try {
      const ledger = await freshLedgerUrl(floor.postgres);
      const out = join(floor.dir, "progress");
      const file = await writeFleetPipeline(floor.dir, { name: "progress", hours: 6, concurrency: 1 });
      const committed = async (): Promise<number> =>
        Object.keys((await readRunState(out))?.slices ?? {}).length;
      const gate = proxy.holdWhen(async () => (await committed()) >= 2);
      const timers = manualTimers();
      const env = { ...service.env, MDQ_BASE_URL: proxy.url, OUT: out, MDQ_QUOTA_LEDGER: ledger };
      const running = runCli(["run", file], { env, progressTimers: timers });
      await gate.reached;
      const sentBeforeTick = quotaRequests(service.emulator);
      timers.tick();
      gate.release();
      const result = await running;
      expect(result.code, result.stderr).toBe(0);
      const lines = result.logs.filter((line) => line.msg === "Progress.");
      expect(lines).toHaveLength(1);
      const shown = lines[0] as {
        ledger: { remaining: number; claim: number; reserved: number; spent: number };
        line: string;
      };
      const { remaining, claim, reserved, spent } = shown.ledger;
      // The fleet's count: the service's day less what was sent and what the ledger handed out since.
      expect(remaining).toBeLessThanOrEqual(5000 - spent);
      expect(remaining).toBeGreaterThanOrEqual(5000 - sentBeforeTick - reserved);
      // Claimed: the plan of six slices and what planning cost; reserved covers what was spent.
      expect(claim).toBeGreaterThanOrEqual(6);
      expect(spent).toBeGreaterThan(0);
      expect(spent).toBeLessThanOrEqual(sentBeforeTick);
      expect(reserved).toBeGreaterThanOrEqual(spent);
      expect(shown.line).toContain(
        `ledger ${remaining.toLocaleString("en-US")} left, claim ${claim.toLocaleString("en-US")}, spent ${spent.toLocaleString("en-US")} of ${reserved.toLocaleString("en-US")} reserved`,
      );
    } finally {
      await proxy.close();
      await service.close();
    }
  }, 60_000);
});
