import { mkdir, mkdtemp, readFile, rm, unlink, writeFile } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { ConfigError, StoppedError } from "../../errors.js";
import { createSilentLogger } from "../../logger.js";
import { createLocalStore } from "../../sinks/file/local-store.js";
import { LOCK_LEASE_MS, MIN_LOCK_LEASE_MS, leaseFromEnv } from "./lock-lease.js";
import { lockObjectPath, lockOutputs } from "./output-lock.js";

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
      space: { host: "host-a" },
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

  // Issue 29: the fence checked only this run's clock, so a holder whose lock was taken over kept
  // committing until its next renewal (a third of the lease later).
  it("stops the run before its next commit once the lock object changed, though its own lease still runs", async () => {
    const { dir, clock, lock } = await setUp();
    clock.monotonic += 100;
    await lock.fence();
    await writeFile(
      join(dir, lockObjectPath()),
      JSON.stringify({
        run_id: "run-b",
        pipeline: "nightly",
        pid: 4242,
        host: "host-a",
        since: "2026-11-23T02:00:00.050Z",
        lease_until: "2026-11-23T02:02:00.050Z",
      }),
    );
    clock.monotonic += 100;
    const stop = lock.fence();
    await expect(stop).rejects.toMatchObject({ code: "OUTPUT_LOCK_LOST" });
    await expect(stop).rejects.toThrow("run run-b (pid 4242 on host-a) took over the lock of");
    expect(lock.lost.aborted).toBe(true);
    await lock.release();
  });

  it("stops the run when its lock object was removed while it held it", async () => {
    const { dir, clock, lock } = await setUp();
    await unlink(join(dir, lockObjectPath()));
    clock.monotonic += 100;
    await expect(lock.fence()).rejects.toThrow(/the lock of .* was removed while this run held it/);
    await lock.release();
  });

  it("lets commits through while its own renewals change the object, at once or one after another", async () => {
    const { clock, lock } = await setUp();
    try {
      for (let step = 0; step < 6; step++) {
        clock.monotonic += 700;
        clock.wall += 700;
        await Promise.all([lock.fence(), lock.renew(), lock.fence()]);
      }
      expect(lock.lost.aborted).toBe(false);
    } finally {
      await lock.release();
    }
  });
});

describe("a lock whose holder's pid is not alive here", () => {
  // This machine's host name, as a run in another container with the host's network would write it.
  const SPACE = { host: hostname(), pidNamespace: "pid:[4026531836]", bootId: "b00t-1" };
  const dirs: string[] = [];
  afterEach(async () => {
    for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
  });

  /** Takes the lock over a planted holder whose lease runs for an hour more; the outcome's code. */
  async function takeOver(holder: Record<string, unknown>): Promise<"taken" | string> {
    const dir = await mkdtemp(join(tmpdir(), "mdq-holder-"));
    dirs.push(dir);
    const now = Date.parse("2026-11-23T02:00:00Z");
    await mkdir(join(dir, "_mdq-export"), { recursive: true });
    await writeFile(
      join(dir, lockObjectPath()),
      JSON.stringify({
        run_id: "run-a",
        pipeline: "nightly",
        pid: 77,
        since: "2026-11-23T01:59:00.000Z",
        lease_until: new Date(now + 3_600_000).toISOString(),
        lease_ms: 3_600_000,
        ...holder,
      }),
    );
    try {
      const lock = await lockOutputs({
        stores: [createLocalStore(dir)],
        path: lockObjectPath(),
        run: { pipelineName: "nightly", runId: "run-b", startedAt: new Date(now) },
        log: createSilentLogger(),
        leaseMs: 3000,
        now: () => now,
        space: SPACE,
        pid: 4242,
        // No process is alive: only where a pid means something may that free the lock.
        isAlive: () => false,
      });
      await lock.release();
      return "taken";
    } catch (error) {
      return String((error as { code?: unknown }).code);
    }
  }

  it("is taken over when the holder ran in this PID namespace since this boot", async () => {
    expect(await takeOver({ host: SPACE.host, pid_ns: SPACE.pidNamespace, boot_id: SPACE.bootId })).toBe(
      "taken",
    );
  });

  // Issue 29: a run in another container with the host's network (same host name) took over a live
  // lock because the holder's pid was not alive in its own PID namespace.
  it("is waited for when the holder's PID namespace, boot or host differs, or is not recorded", async () => {
    const same = { host: SPACE.host, pid_ns: SPACE.pidNamespace, boot_id: SPACE.bootId };
    const cases = [
      { ...same, pid_ns: "pid:[4026532999]" },
      { ...same, boot_id: "b00t-2" },
      { ...same, host: `${SPACE.host}-2` },
      { host: SPACE.host, boot_id: SPACE.bootId },
      { host: SPACE.host, pid_ns: SPACE.pidNamespace },
      { host: SPACE.host },
    ];
    for (const holder of cases) expect(await takeOver(holder), JSON.stringify(holder)).toBe("OUTPUT_LOCKED");
  });

  it("frees a lease that still runs only when host, PID namespace and boot are all this run's", async () => {
    const part = (ours: string) => fc.constantFrom<string | undefined>(ours, `${ours}-other`, undefined);
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          host: fc.constantFrom(SPACE.host, `${SPACE.host}-2`),
          pid_ns: part(SPACE.pidNamespace),
          boot_id: part(SPACE.bootId),
        }),
        async (holder) => {
          const shared =
            holder.host === SPACE.host &&
            holder.pid_ns === SPACE.pidNamespace &&
            holder.boot_id === SPACE.bootId;
          const planted = Object.fromEntries(
            Object.entries(holder).filter(([, value]) => value !== undefined),
          );
          expect(await takeOver(planted)).toBe(shared ? "taken" : "OUTPUT_LOCKED");
        },
      ),
      { numRuns: 30 },
    );
  });
});
