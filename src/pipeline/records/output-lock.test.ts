import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ConfigError, StoppedError } from "../../errors.js";
import { createSilentLogger } from "../../logger.js";
import { createLocalStore } from "../../sinks/file/local-store.js";
import {
  LOCK_LEASE_MS,
  MIN_LOCK_LEASE_MS,
  leaseFromEnv,
  lockObjectPath,
  lockOutputs,
} from "./output-lock.js";

describe("the lock's lease from MDQ_LOCK_LEASE_MS", () => {
  it("takes a whole number of milliseconds, the default when unset", () => {
    expect(leaseFromEnv({ MDQ_LOCK_LEASE_MS: "5000" })).toBe(5000);
    expect(leaseFromEnv({ MDQ_LOCK_LEASE_MS: String(MIN_LOCK_LEASE_MS) })).toBe(MIN_LOCK_LEASE_MS);
    expect(leaseFromEnv({})).toBe(LOCK_LEASE_MS);
    expect(leaseFromEnv({ MDQ_LOCK_LEASE_MS: "" })).toBe(LOCK_LEASE_MS);
  });

  it("refuses a value that is not one, or too short to renew, naming the variable and the value", () => {
    for (const value of ["abc", "10", "-5", "1500.5", "Infinity"]) {
      expect(() => leaseFromEnv({ MDQ_LOCK_LEASE_MS: value })).toThrow(ConfigError);
      expect(() => leaseFromEnv({ MDQ_LOCK_LEASE_MS: value })).toThrow(
        `MDQ_LOCK_LEASE_MS must be a whole number of milliseconds from ${MIN_LOCK_LEASE_MS} up, found "${value}"`,
      );
    }
  });
});

describe("the lock's fence", () => {
  const dirs: string[] = [];
  afterEach(async () => {
    for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
  });

  async function setUp(leaseMs = 3000) {
    const dir = await mkdtemp(join(tmpdir(), "mdq-fence-"));
    dirs.push(dir);
    const store = createLocalStore(dir);
    const clock = { wall: Date.parse("2026-11-23T02:00:00Z"), monotonic: 1_000 };
    const lock = await lockOutputs({
      stores: [store],
      path: lockObjectPath(),
      run: { pipelineName: "nightly", runId: "run-a", startedAt: new Date() },
      log: createSilentLogger(),
      leaseMs,
      now: () => clock.wall,
      monotonic: () => clock.monotonic,
      host: "host-a",
      pid: 4242,
    });
    const file = async () =>
      JSON.parse(await readFile(join(dir, lockObjectPath()), "utf8")) as Record<string, unknown>;
    return { dir, store, clock, lock, file };
  }

  it("lets a commit through while the lease runs, renewing once half of it has passed", async () => {
    const { clock, lock, file } = await setUp();
    try {
      clock.monotonic += 1000;
      await lock.fence();
      expect(await file()).toMatchObject({ lease_until: "2026-11-23T02:00:03.000Z", lease_ms: 3000 });
      clock.monotonic += 600;
      clock.wall += 1600;
      await lock.fence();
      expect(await file()).toMatchObject({ lease_until: "2026-11-23T02:00:04.600Z" });
      // The renewal just now restarted the lease: 2.9 s on, it still runs.
      clock.monotonic += 2900;
      await lock.fence();
      expect(lock.lost.aborted).toBe(false);
    } finally {
      await lock.release();
    }
  });

  it("stops the run once the lease ran out on the monotonic clock, whatever the wall clock says, and writes nothing more", async () => {
    const { clock, lock, file } = await setUp();
    const before = await file();
    // Paused for the whole lease: the wall clock (set back, or on a host that never moved) cannot save it.
    clock.monotonic += 3000;
    const stop = lock.fence();
    await expect(stop).rejects.toBeInstanceOf(StoppedError);
    await expect(stop).rejects.toMatchObject({ code: "OUTPUT_LOCK_LOST" });
    await expect(stop).rejects.toThrow(/lease on the output lock ran out \(3\.0 s since it was last renewed/);
    expect(lock.lost.aborted).toBe(true);
    expect(await lock.renew()).toBe(false);
    await expect(lock.fence()).rejects.toMatchObject({ code: "OUTPUT_LOCK_LOST" });
    await lock.release();
    expect(await file()).toEqual(before);
  });

  it("stops the run, naming the new holder escaped, when another run took the lock over", async () => {
    const { dir, clock, lock } = await setUp();
    await writeFile(
      join(dir, lockObjectPath()),
      JSON.stringify({
        run_id: "run-\u001b[2Kb",
        pipeline: "nightly",
        pid: 7,
        host: "host-b",
        since: "2026-11-23T02:00:01.000Z",
        lease_until: "2026-11-23T02:02:01.000Z",
      }),
    );
    clock.monotonic += 1600;
    const stop = lock.fence();
    await expect(stop).rejects.toMatchObject({ code: "OUTPUT_LOCK_LOST" });
    await expect(stop).rejects.toThrow("run run-\\u001b[2Kb (pid 7 on host-b) took over the lock");
    await lock.release();
  });
});
