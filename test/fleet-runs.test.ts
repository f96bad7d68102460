// A fleet of real exporter processes sharing one daily quota through the quota ledger on a real
// PostgreSQL, against an emulator with a small daily quota: the sum of their requests stays within
// the quota less the reserve, a high-priority run completes while a low one yields (75), a standing
// claim holds before its run starts, and a new quota day lets the yielded run finish.
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { runCli, spawnCli, startTestService, waitFor } from "./support/cli-harness.js";
import type { SpawnedCli, TestService } from "./support/cli-harness.js";
import {
  freshLedgerUrl,
  ledgerAsShown,
  quotaRequests,
  useFleetFloor,
  writeFleetPipeline,
} from "./support/fleet.js";

const floor = useFleetFloor("fleet");

interface Fleet {
  service: TestService;
  ledger: string;
  run(file: string, out: string, argv?: readonly string[]): SpawnedCli;
  close(): Promise<void>;
}

async function startFleet(options: Parameters<typeof startTestService>[0]): Promise<Fleet> {
  const service = await startTestService({ seed: 11, density: 40, ...options });
  const ledger = await freshLedgerUrl(floor.postgres);
  return {
    service,
    ledger,
    run: (file, out, argv = []) =>
      spawnCli(["run", file, ...argv], {
        ...service.env,
        OUT: join(floor.dir, out),
        MDQ_QUOTA_LEDGER: ledger,
      }),
    close: () => service.close(),
  };
}

/** The client's runs in the ledger, by pipeline. */
async function spentBy(ledger: string, pipeline: string): Promise<number> {
  const shown = await ledgerAsShown(ledger);
  return (shown.clients[0]?.runs ?? [])
    .filter((run) => run.pipeline === pipeline)
    .reduce((sum, run) => sum + run.spent + run.held, 0);
}

describe("a fleet sharing one daily quota", () => {
  test("three runs and a three-shard backfill never spend more than the quota less the reserve", async () => {
    const quota = 90;
    const reserve = 5;
    const fleet = await startFleet({ quota });
    try {
      const files = await Promise.all([
        ...["jobs-a", "jobs-b", "jobs-c"].map((name) =>
          writeFleetPipeline(floor.dir, { name, hours: 8, reserve }),
        ),
        writeFleetPipeline(floor.dir, { name: "backfill", hours: 12, reserve, startDay: 3 }),
      ]);
      const runs = [
        fleet.run(files[0]!, "a"),
        fleet.run(files[1]!, "b"),
        fleet.run(files[2]!, "c"),
        ...[0, 1, 2].map((shard) => fleet.run(files[3]!, "backfill", ["--shard", `${shard}/3`])),
      ];
      const codes = await Promise.all(runs.map((run) => run.exited));
      const stderr = runs.map((run) => run.stderr()).join("\n");
      for (const code of codes) expect([0, 75], stderr).toContain(code);
      // The fleet wanted more than the day had: some runs stopped at the reserve, none beyond it.
      expect(codes, stderr).toContain(75);
      expect(quotaRequests(fleet.service.emulator)).toBeLessThanOrEqual(quota - reserve);
      expect(stderr).not.toContain("HTTP 429");
    } finally {
      await fleet.close();
    }
  }, 120_000);

  test("a high-priority run completes while a low-priority one yields with 75, naming it", async () => {
    // Requests take a little time, so the backfill is still running when the nightly run starts.
    const fleet = await startFleet({ quota: 220, faults: { latencyMs: 80 } });
    try {
      const backfill = await writeFleetPipeline(floor.dir, {
        name: "backfill",
        hours: 80,
        priority: "low",
        concurrency: 1,
      });
      // About 150 requests for the backfill and 75 for the nightly run: the day has room for the
      // nightly run and not for both, so the backfill, started first, gives way once the nightly run's
      // claim arrives (as long as that is within some 140 of the backfill's requests). One request at a
      // time each, so the nightly run lasts long enough for the backfill to come back to the ledger.
      const nightly = await writeFleetPipeline(floor.dir, {
        name: "nightly",
        hours: 40,
        priority: "high",
        concurrency: 1,
      });
      const low = fleet.run(backfill, "yield-backfill");
      await waitFor(
        async () => (await spentBy(fleet.ledger, "backfill")) >= 10,
        "the backfill to spend",
        30_000,
      );
      const high = fleet.run(nightly, "yield-nightly");
      expect(await high.exited, high.stderr()).toBe(0);
      expect(await low.exited, low.stderr()).toBe(75);
      expect(low.stderr()).toContain("yielded to pipeline nightly");
      expect(low.stderr()).toContain("Run stopped: it yielded to a higher-priority pipeline");
      const shown = await ledgerAsShown(fleet.ledger);
      const outcomes = Object.fromEntries((shown.clients[0]?.runs ?? []).map((run) => [run.pipeline, run]));
      expect(outcomes["nightly"]).toMatchObject({ outcome: "complete", priority: "high", held: 0 });
      expect(outcomes["backfill"]).toMatchObject({ outcome: "yielded", yieldedTo: "nightly", held: 0 });
      expect(quotaRequests(fleet.service.emulator)).toBeLessThanOrEqual(220);
    } finally {
      await fleet.close();
    }
  }, 120_000);

  test("a low-priority backfill that starts first leaves a later high-priority run's standing claim untouched", async () => {
    const quota = 80;
    const standing = 30;
    const fleet = await startFleet({ quota });
    try {
      const backfill = await writeFleetPipeline(floor.dir, {
        name: "backfill",
        hours: 40,
        priority: "low",
        concurrency: 1,
      });
      const nightly = await writeFleetPipeline(floor.dir, {
        name: "nightly",
        hours: 8,
        priority: "high",
        quota: { standing },
      });
      // Deployed ahead of its first run: the standing claim is in the ledger before the backfill starts.
      const registered = await runCli(["quota", nightly], {
        env: {
          ...fleet.service.env,
          OUT: join(floor.dir, "standing-nightly"),
          MDQ_QUOTA_LEDGER: fleet.ledger,
        },
      });
      expect(registered.code, registered.stderr).toBe(0);
      expect(registered.stdout).toMatch(/high\s+nightly\s+30\s+30\s+0\s+no/);
      const low = fleet.run(backfill, "standing-backfill");
      expect(await low.exited, low.stderr()).toBe(75);
      expect(low.stderr()).toContain("yielded to pipeline nightly");
      const spentByBackfill = quotaRequests(fleet.service.emulator);
      expect(spentByBackfill).toBeLessThanOrEqual(quota - standing);
      const high = fleet.run(nightly, "standing-nightly");
      expect(await high.exited, high.stderr()).toBe(0);
      const shown = await ledgerAsShown(fleet.ledger);
      expect(shown.clients[0]?.standing[0]).toMatchObject({
        pipeline: "nightly",
        protecting: 0,
        finishedToday: true,
      });
    } finally {
      await fleet.close();
    }
  }, 120_000);
});
