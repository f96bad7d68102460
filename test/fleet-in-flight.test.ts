// limits.quota.max_in_flight holds across processes: two runs, each allowed 4 requests at once, share
// a fleet bound of 3 through the ledger; a proxy in front of the emulator sees every request of both
// and never more than 3 waiting for the service at once. Both runs finish.
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { spawnCli, startTestService } from "./support/cli-harness.js";
import { startGateProxy } from "./support/gate-proxy.js";
import { freshLedgerUrl, useFleetFloor, writeFleetPipeline } from "./support/fleet.js";

const floor = useFleetFloor("fleet-in-flight");

describe("max_in_flight", () => {
  test("two runs of concurrency 4 under a fleet bound of 3 never have more than 3 requests in flight", async () => {
    const maxInFlight = 3;
    // Answers take a little while, so each run keeps as many requests in flight as it may.
    const service = await startTestService({ seed: 11, density: 40, faults: { latencyMs: 40 } });
    const proxy = await startGateProxy(service.emulator.url);
    try {
      const ledger = await freshLedgerUrl(floor.postgres);
      const files = await Promise.all(
        ["fleet-a", "fleet-b"].map((name) =>
          writeFleetPipeline(floor.dir, {
            name,
            hours: 12,
            pageSize: 20,
            concurrency: 4,
            quota: { max_in_flight: maxInFlight },
          }),
        ),
      );
      // The service's requests through the proxy; tokens straight from the emulator (no quota, no bound).
      const env = { ...service.env, MDQ_BASE_URL: proxy.url, MDQ_QUOTA_LEDGER: ledger };
      const runs = files.map((file, index) =>
        spawnCli(["run", file], { ...env, OUT: join(floor.dir, `out-${index}`) }),
      );
      for (const run of runs) expect(await run.exited, run.stderr()).toBe(0);
      const peak = proxy.takePeakInFlight();
      expect(peak).toBeLessThanOrEqual(maxInFlight);
      // The bound was reached, not merely respected by runs that never pressed on it.
      expect(peak).toBe(maxInFlight);
    } finally {
      await proxy.close();
      await service.close();
    }
  }, 120_000);
});
