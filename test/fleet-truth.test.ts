// A fleet held to the truth: real exporter processes of mixed priorities (a nightly run, a normal one,
// a three-shard backfill) over one emulator with a small daily quota, sharing one PostgreSQL ledger;
// the normal run is killed with SIGKILL mid-run. Each quota day the emulator counts no more than the
// quota less the reserve, the high-priority run finishes, the backfill's shards stop with 75, and every
// finished output equals the emulator's records for its window. On the next quota days the killed run
// and the shards resume, finish, and equal the truth too.
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import {
  compareExactly,
  expectedRows,
  readNdjsonRecords,
  spawnCli,
  startTestService,
  waitFor,
} from "./support/cli-harness.js";
import type { SpawnedCli, TestService } from "./support/cli-harness.js";
import { freshLedgerUrl, quotaRequests, useFleetFloor, writeFleetPipeline } from "./support/fleet.js";

const floor = useFleetFloor("fleet-truth");

const DAY_MS = 86_400_000;

/** The emulator's records for a fleet pipeline's window (hourly from 2026-11-10 less `startDay`). */
function truthFor(service: TestService, hours: number, startDay = 0) {
  const start = Date.parse(`2026-11-${String(10 - startDay).padStart(2, "0")}T00:00:00Z`);
  return expectedRows(service.emulator, "/v3/jobs/query", [
    {
      application: "atr",
      app_type: ["ec2"],
      domain: ["*"],
      start_time: new Date(start).toISOString(),
      end_time: new Date(start + hours * 3_600_000).toISOString(),
    },
  ]);
}

async function expectTruth(service: TestService, out: string, hours: number, startDay = 0): Promise<void> {
  const expected = await truthFor(service, hours, startDay);
  expect(expected.size).toBeGreaterThan(100);
  expect(compareExactly(await readNdjsonRecords(join(floor.dir, out)), expected)).toBeUndefined();
}

describe("a fleet held to the truth", () => {
  test("mixed priorities, a three-shard backfill and a killed run: the quota holds and every finished output is exact", async () => {
    const quota = 130;
    const reserve = 5;
    // The emulator's clock, moved a day on to begin the next quota day.
    let shift = 0;
    const service: TestService = await startTestService({
      seed: 11,
      density: 40,
      quota,
      clock: () => Date.now() + shift,
      faults: { latencyMs: 20 },
    });
    try {
      const ledger = await freshLedgerUrl(floor.postgres);
      const quotaSettings = { lease_ms: 2000, recheck_after_ms: 1000 };
      const write = (name: string, priority: "high" | "normal" | "low", hours: number, startDay = 0) =>
        writeFleetPipeline(floor.dir, { name, hours, priority, reserve, startDay, quota: quotaSettings });
      // Some 20 requests for the nightly run, 35 for the normal one, 150 for the backfill: more than a
      // day of 125 holds, so the backfill cannot finish on the first day.
      const nightly = await write("nightly", "high", 8);
      const jobs = await write("jobs", "normal", 16, 1);
      const backfill = await write("backfill", "low", 72, 6);
      const start = (file: string, out: string, argv: readonly string[] = []): SpawnedCli =>
        spawnCli(["run", file, ...argv], {
          ...service.env,
          OUT: join(floor.dir, out),
          MDQ_QUOTA_LEDGER: ledger,
        });
      const killed = start(jobs, "jobs");
      const shards = [0, 1, 2].map((shard) => start(backfill, "backfill", ["--shard", `${shard}/3`]));
      const high = start(nightly, "nightly");
      // Killed once its plan is claimed and its slices begin: it holds a block of the day.
      await waitFor(
        () => killed.stderr().includes('"msg":"Run started."'),
        "the normal run to start",
        30_000,
      );
      killed.child.kill("SIGKILL");
      expect(await killed.exited).toBe("SIGKILL");
      expect(await high.exited, high.stderr()).toBe(0);
      const codes = await Promise.all(shards.map((shard) => shard.exited));
      const stderr = shards.map((shard) => shard.stderr()).join("\n");
      expect(codes, stderr).toEqual([75, 75, 75]);
      const firstDay = quotaRequests(service.emulator);
      expect(firstDay).toBeLessThanOrEqual(quota - reserve);
      await expectTruth(service, "nightly", 8);

      // The next quota days: the killed run and the shards that stopped resume, each day within the
      // quota less the reserve, until they finish. The ledger learns of a new day from one request
      // once its count is a second old.
      type Pending = { file: string; out: string; argv: readonly string[] };
      let pending: Pending[] = [
        { file: jobs, out: "jobs", argv: [] },
        ...[0, 1, 2].map((shard) => ({ file: backfill, out: "backfill", argv: ["--shard", `${shard}/3`] })),
      ];
      const committed = async (): Promise<number> =>
        (await readNdjsonRecords(join(floor.dir, "jobs"))).length +
        (await readNdjsonRecords(join(floor.dir, "backfill"))).length;
      for (let day = 2; pending.length > 0; day++) {
        // A low-priority shard yields while a higher run under way leaves too little to see it through,
        // so how many days the fleet takes depends on who asks first; what must hold is that each day
        // moves it on (a run finishes, or more records are committed), within the quota.
        expect(day, "the fleet finishes within a fortnight").toBeLessThanOrEqual(14);
        shift += DAY_MS;
        const lastReport = Date.now();
        await waitFor(() => Date.now() - lastReport > 1100, "the ledger's count to be due for a recheck");
        const before = quotaRequests(service.emulator);
        const recordsBefore = await committed();
        const runs = pending.map((run) => ({ run, cli: start(run.file, run.out, run.argv) }));
        const ended = await Promise.all(
          runs.map(async ({ run, cli }) => ({ run, cli, code: await cli.exited })),
        );
        for (const { cli, code } of ended) expect([0, 75], cli.stderr()).toContain(code);
        const spentToday = quotaRequests(service.emulator) - before;
        expect(spentToday).toBeGreaterThan(0);
        expect(spentToday).toBeLessThanOrEqual(quota - reserve);
        const finished = ended.some(({ code }) => code === 0);
        expect(
          finished || (await committed()) > recordsBefore,
          `day ${day} moved the fleet on\n${ended.map(({ cli }) => cli.stderr()).join("\n")}`,
        ).toBe(true);
        pending = ended.filter(({ code }) => code === 75).map(({ run }) => run);
      }
      await expectTruth(service, "jobs", 16, 1);
      await expectTruth(service, "backfill", 72, 6);
    } finally {
      await service.close();
    }
  }, 180_000);
});
