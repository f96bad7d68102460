// The quota ledger's faults with real processes and a real PostgreSQL: a run killed with SIGKILL gives
// its block back once its lease runs out, a new quota day (the emulator's day shortened) lets a run
// that yielded finish, and a ledger out of reach at the start or during the run stops it cleanly
// (75), its password in no message.
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { spawnCli, startTestService, waitFor } from "./support/cli-harness.js";
import type { TestService } from "./support/cli-harness.js";
import {
  freshLedgerUrl,
  ledgerAsShown,
  quotaRequests,
  useFleetFloor,
  writeFleetPipeline,
} from "./support/fleet.js";

const floor = useFleetFloor("fleet-faults");

function run(service: TestService, ledger: string, file: string, out: string) {
  return spawnCli(["run", file], { ...service.env, OUT: join(floor.dir, out), MDQ_QUOTA_LEDGER: ledger });
}

describe("quota ledger faults", () => {
  test("a run killed with SIGKILL while holding a block gives it back once its lease runs out", async () => {
    const service = await startTestService({ seed: 11, density: 40, faults: { latencyMs: 100 } });
    try {
      const ledger = await freshLedgerUrl(floor.postgres);
      const file = await writeFleetPipeline(floor.dir, {
        name: "killed",
        hours: 40,
        quota: { lease_ms: 1000 },
      });
      const victim = run(service, ledger, file, "killed");
      const holding = await waitFor(async () => {
        const shown = await ledgerAsShown(ledger);
        const found = shown.clients[0]?.runs.find((entry) => entry.held > 0 && entry.spent > 0);
        return found;
      }, "the run to hold a block");
      victim.child.kill("SIGKILL");
      await victim.exited;
      // Within its lease the block is still the killed run's.
      const before = await ledgerAsShown(ledger);
      const remainingBefore = before.clients[0]?.remaining ?? 0;
      // The lease is a second: real time, since the ledger's clock is the database's.
      const after = await waitFor(
        async () => {
          const shown = await ledgerAsShown(ledger);
          const entry = shown.clients[0]?.runs.find((candidate) => candidate.runId === holding.runId);
          return entry?.outcome === "expired" ? shown : undefined;
        },
        "the lease to run out",
        10_000,
      );
      const expired = after.clients[0]?.runs.find((entry) => entry.runId === holding.runId);
      expect(expired).toMatchObject({ outcome: "expired", held: 0 });
      const heldAtKill = before.clients[0]?.runs.find((entry) => entry.runId === holding.runId)?.held ?? 0;
      expect(heldAtKill).toBeGreaterThan(0);
      expect(after.clients[0]?.remaining).toBe(remainingBefore + heldAtKill);
    } finally {
      await service.close();
    }
  }, 60_000);

  test("a new quota day lets a run that yielded finish", async () => {
    const dayMs = 10_000;
    // The real clock: the day turns while the test waits, a few seconds.
    const service = await startTestService({ seed: 11, density: 40, quota: 70, quotaDayMs: dayMs });
    try {
      const ledger = await freshLedgerUrl(floor.postgres);
      const nightly = await writeFleetPipeline(floor.dir, {
        name: "nightly",
        hours: 8,
        priority: "high",
        quota: { standing: 20 },
      });
      const backfill = await writeFleetPipeline(floor.dir, {
        name: "backfill",
        hours: 30,
        priority: "low",
        quota: { recheck_after_ms: 1000 },
      });
      // The backfill needs some 57 requests; a day of 70 keeps 20 for the nightly run, so it takes two.
      // Start at the beginning of a quota day, so the first run ends within it.
      await waitFor(() => Date.now() % dayMs < 500, "a quota day to begin", dayMs + 1000);
      const day = Math.floor(Date.now() / dayMs);
      const env = { ...service.env, OUT: join(floor.dir, "new-day-nightly"), MDQ_QUOTA_LEDGER: ledger };
      const registered = spawnCli(["quota", nightly], env);
      expect(await registered.exited, registered.stderr()).toBe(0);
      const first = run(service, ledger, backfill, "new-day-backfill");
      expect(await first.exited, first.stderr()).toBe(75);
      expect(first.stderr()).toContain("yielded to pipeline nightly");
      expect(Math.floor(Date.now() / dayMs), "the first run ended within its quota day").toBe(day);
      await waitFor(() => Math.floor(Date.now() / dayMs) > day, "the next quota day", dayMs + 1000);
      const second = run(service, ledger, backfill, "new-day-backfill");
      expect(await second.exited, second.stderr()).toBe(0);
      const shown = await ledgerAsShown(ledger);
      expect(shown.clients[0]?.day).toBe(2);
    } finally {
      await service.close();
    }
  }, 60_000);

  test("a ledger out of reach at the start stops the run before any request, unless it may run alone", async () => {
    const service = await startTestService({ seed: 11, density: 40 });
    try {
      const gone = `postgres://mdq:${floor.postgres.password}@127.0.0.1:1/postgres`;
      const file = await writeFleetPipeline(floor.dir, { name: "nowhere", hours: 2 });
      const stopped = run(service, gone, file, "nowhere");
      expect(await stopped.exited, stopped.stderr()).toBe(75);
      expect(stopped.stderr()).toContain("the quota ledger postgres://127.0.0.1:1/postgres is unreachable");
      expect(stopped.stderr()).not.toContain(floor.postgres.password);
      expect(quotaRequests(service.emulator)).toBe(0);
      const alone = await writeFleetPipeline(floor.dir, {
        name: "alone",
        hours: 2,
        quota: { alone_when_unreachable: true },
      });
      const ran = run(service, gone, alone, "alone");
      expect(await ran.exited, ran.stderr()).toBe(0);
      expect(ran.stderr()).toContain("running alone");
      expect(ran.stderr()).not.toContain(floor.postgres.password);
    } finally {
      await service.close();
    }
  }, 60_000);

  test("the ledger going away mid-run stops the run cleanly once its block is spent", async () => {
    // A day of 1000: blocks of at most a tenth of it, so the run's 175 requests need more than one.
    const service = await startTestService({ seed: 11, density: 40, quota: 1000, faults: { latencyMs: 60 } });
    try {
      const ledger = await freshLedgerUrl(floor.postgres);
      // Some 175 requests, reserved in blocks of up to a tenth of the day's count.
      const file = await writeFleetPipeline(floor.dir, { name: "cut-off", hours: 100 });
      const victim = run(service, ledger, file, "cut-off");
      await waitFor(async () => {
        const shown = await ledgerAsShown(ledger);
        return (shown.clients[0]?.runs[0]?.spent ?? 0) > 0;
      }, "the run to be under way");
      await floor.postgres.stop();
      try {
        expect(await victim.exited, victim.stderr()).toBe(75);
      } finally {
        await floor.postgres.start();
      }
      expect(victim.stderr()).toContain("is unreachable");
      expect(victim.stderr()).toContain("Run stopped: the quota ledger became unreachable");
      expect(victim.stderr()).not.toContain(floor.postgres.password);
      // The committed slices are kept: a rerun with the ledger back resumes and completes.
      const rerun = run(service, ledger, file, "cut-off");
      expect(await rerun.exited, rerun.stderr()).toBe(0);
      expect(rerun.stderr()).toContain("Resuming: committed slices are skipped.");
    } finally {
      await service.close();
    }
  }, 90_000);
});
