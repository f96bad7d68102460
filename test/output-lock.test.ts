// One run per output, with real processes of the built CLI: a second run on an output another run is
// writing stops at once (exit 75) and names the holder, touching nothing; shards of one backfill lock
// their own state and still run side by side; a lock whose process is gone from this PID namespace is
// taken over, and one of a holder in another PID namespace of this host (a container with the host's
// network) is waited for, whatever its pid means here.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";
import { describe, expect } from "vitest";
import { listTree, readNdjsonRecords, runCli, spawnCli, temporaryFiles } from "./support/cli-harness.js";
import { writeJobsPipeline } from "./support/jobs-pipeline.js";
import { deadPid, liveLockHolder, thisProcessSpace } from "./support/lock-holder.js";
import { readRunState } from "./support/run-state.js";
import type { GateProxy } from "./support/gate-proxy.js";
import { gateProxyFixture, useEmulator } from "./support/use-emulator.js";

const it = useEmulator({ seed: 5, density: 20 }, { preset: false }).extend<{
  proxy: GateProxy;
  pipeline: string;
  /** The environment of a run into `out` that reaches the emulator through the proxy. */
  env: (out: string) => Record<string, string>;
}>({
  proxy: gateProxyFixture(),
  pipeline: [
    async ({ workspace }, use) => {
      await use(
        await writeJobsPipeline(workspace.dir, { name: "nightly", hours: 4, limits: { concurrency: 1 } }),
      );
    },
    { scope: "file" },
  ],
  env: [
    async ({ service, proxy }, use) => {
      await use((out) => ({ ...service.env, MDQ_BASE_URL: proxy.url, MDQ_AUTH_URL: proxy.url, OUT: out }));
    },
    { scope: "file" },
  ],
});

const LOCK = "_mdq-export/lock.json";
const STATE = "_mdq-export/state.json";

/** Whether this machine lets the tests start a process in a PID namespace of its own (root, Linux). */
function canUnsharePid(): boolean {
  return spawnSync("unshare", ["--pid", "--fork", "true"]).status === 0;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function plantLock(out: string, holder: Record<string, unknown>, path = LOCK): Promise<void> {
  await mkdir(join(out, "_mdq-export"), { recursive: true });
  await writeFile(join(out, path), JSON.stringify(holder));
}

describe("one run per output", () => {
  it("stops a second run (and a --force one) at once with exit 75, naming the holder, and touches nothing", async ({
    workspace,
    pipeline,
    proxy,
    env,
  }) => {
    const out = join(workspace.dir, "overlap");
    // The run takes its lock before it asks the service anything, and opens its state once the
    // mappings are in; the requests held are its slices' pages after that.
    const gate = proxy.holdWhen(() => existsSync(join(out, LOCK)) && existsSync(join(out, STATE)));
    const first = spawnCli(["run", pipeline], env(out));
    await gate.reached;
    const holder = JSON.parse(await readFile(join(out, LOCK), "utf8")) as Record<string, unknown>;
    expect(holder).toMatchObject({ pid: first.child.pid, host: hostname(), pipeline: "nightly" });
    const before = await listTree(out);

    for (const extra of [[], ["--force"]]) {
      const second = spawnCli(["run", pipeline, ...extra], env(out));
      const code = await second.exited;
      expect(code, second.stderr()).toBe(75);
      expect(second.stderr()).toContain(`locked by run ${String(holder.run_id)}`);
      expect(second.stderr()).toContain(`pid ${first.child.pid} on ${hostname()}`);
      expect(second.stderr()).toContain(`since ${String(holder.since)}`);
      expect(await listTree(out)).toEqual(before);
    }

    gate.release();
    expect(await first.exited, first.stderr()).toBe(0);
    const tree = await listTree(out);
    expect(tree).not.toContain(LOCK);
    expect(temporaryFiles(tree)).toEqual([]);
    const verified = await runCli(["verify", pipeline], { env: env(out) });
    expect(verified.code, verified.stdout + verified.stderr).toBe(0);
  }, 60_000);

  it("stops a run whose lock another run took over: exit 75, nothing half-written, the lock left alone", async ({
    workspace,
    pipeline,
    proxy,
    env,
  }) => {
    const out = join(workspace.dir, "taken-over");
    const committed = async (): Promise<number> =>
      Object.keys((await readRunState(out))?.slices ?? {}).length;
    // The first request after a slice is in is held, so the run is mid-way when its lock is taken;
    // once let go, its next commit reads the lock back and stops. Gates alone decide: the lease is the
    // default one, so a machine too busy to renew a short lease in time cannot end the run first (it
    // then stopped on its own lease before its first commit, and the gate was never reached).
    const gate = proxy.holdWhen(async () => (await committed()) >= 1);
    const report = join(workspace.dir, "taken-over-report.json");
    const first = spawnCli(["run", pipeline, "--report", report], env(out));
    await Promise.race([
      gate.reached,
      first.exited.then((code) => expect.fail(`ended ${code} before a slice was in: ${first.stderr()}`)),
    ]);
    const other = liveLockHolder("r-other", "nightly");
    await writeFile(join(out, LOCK), JSON.stringify(other));
    gate.release();
    const code = await first.exited;
    expect(code, first.stderr()).toBe(75);
    expect(first.stderr()).toContain(`run r-other (pid ${process.pid} on ${hostname()}) took over the lock`);
    expect(first.stderr()).toContain("Lost the output lock");
    const tree = await listTree(out);
    expect(temporaryFiles(tree)).toEqual([]);
    expect(tree).not.toContain("_manifest.json");
    // No manifest was written, so none is named: a loader reading the report must not take an older one.
    const written = JSON.parse(await readFile(report, "utf8")) as {
      manifests: unknown[];
      sinks: { manifest: unknown }[];
    };
    expect(written.manifests).toEqual([]);
    expect(written.sinks.map((sink) => sink.manifest)).toEqual([null]);
    expect(first.stdout()).toContain("no manifest written");
    expect(JSON.parse(await readFile(join(out, LOCK), "utf8"))).toEqual(other);
    const kept = await committed();
    expect(kept).toBeGreaterThanOrEqual(1);
    expect(kept).toBeLessThan(4);

    // The other run finishes and frees the lock; the next run resumes from what was committed.
    await rm(join(out, LOCK));
    const rerun = await runCli(["run", pipeline], { env: env(out) });
    expect(rerun.code, rerun.stderr).toBe(0);
    const verified = await runCli(["verify", pipeline], { env: env(out) });
    expect(verified.code, verified.stdout + verified.stderr).toBe(0);
  }, 60_000);

  it("lets the shards of one backfill run side by side: each locks its own state", async ({
    workspace,
    pipeline,
    proxy,
    env,
  }) => {
    const out = join(workspace.dir, "shards");
    const gate = proxy.holdWhen(
      () =>
        existsSync(join(out, "_mdq-export/lock.shard-0-of-2.json")) &&
        existsSync(join(out, "_mdq-export/state.shard-0-of-2.json")),
    );
    const first = spawnCli(["run", pipeline, "--shard", "0/2"], env(out));
    await gate.reached;
    const second = spawnCli(["run", pipeline, "--shard", "1/2"], env(out));
    expect(await second.exited, second.stderr()).toBe(0);
    const third = spawnCli(["run", pipeline, "--shard", "0/2"], env(out));
    expect(await third.exited, third.stderr()).toBe(75);
    gate.release();
    expect(await first.exited, first.stderr()).toBe(0);
    const tree = await listTree(out);
    expect(tree.filter((path) => path.includes("lock"))).toEqual([]);
    expect(new Set((await readNdjsonRecords(out)).map((row) => row._id)).size).toBeGreaterThan(0);
  }, 60_000);

  it("takes over a lock whose process is gone from this PID namespace since this boot", async ({
    workspace,
    pipeline,
    env,
  }) => {
    const out = join(workspace.dir, "dead");
    const lease = new Date(Date.now() + 3_600_000).toISOString();
    await plantLock(out, {
      run_id: "r-dead",
      pipeline: "nightly",
      pid: deadPid(),
      ...thisProcessSpace(),
      since: "2026-11-22T01:00:00.000Z",
      lease_until: lease,
    });
    const run = await runCli(["run", pipeline], { env: env(out) });
    expect(run.code, run.stderr).toBe(0);
    expect(run.logs.some((log) => String(log.msg).startsWith("Took over the lock"))).toBe(true);
    expect(await listTree(out)).not.toContain(LOCK);
  }, 30_000);

  // Issue 29: "same host, pid not alive" was read as a dead holder, so a run in another container with
  // the host's network took over a live lease and both exported.
  it("waits for the lease of a holder of this host whose PID namespace or boot is not this run's, or not recorded", async ({
    workspace,
    pipeline,
    env,
  }) => {
    const space = thisProcessSpace();
    const holders = [
      { ...space, pid_ns: "pid:[4026532999]" },
      { ...space, boot_id: "0b8ff622-0000-0000-0000-000000000000" },
      { host: space.host },
    ];
    for (const [index, where] of holders.entries()) {
      const out = join(workspace.dir, `elsewhere-${index}`);
      const pid = deadPid();
      const holder = {
        run_id: "r-container",
        pipeline: "nightly",
        pid,
        ...where,
        since: "2026-11-22T01:00:00.000Z",
        lease_until: new Date(Date.now() + 120_000).toISOString(),
        lease_ms: 120_000,
      };
      await plantLock(out, holder);
      const refused = await runCli(["run", pipeline], { env: env(out) });
      expect(refused.code, refused.stderr).toBe(75);
      expect(refused.stderr).toContain(`locked by run r-container (pid ${pid} on ${space.host}`);
      expect(refused.stderr).toContain("another PID namespace or boot than this run");
      expect(await listTree(out)).toEqual([LOCK]);
      expect(JSON.parse(await readFile(join(out, LOCK), "utf8"))).toEqual(holder);
    }
  }, 60_000);

  // The same with a real holder in a PID namespace of its own, where this machine allows one (root on
  // Linux, as CI runs): its pid is chosen to be one no process of this namespace has.
  it("stops a second run while a holder in another PID namespace of this host writes the output", async ({
    workspace,
    pipeline,
    proxy,
    env,
  }) => {
    expect(canUnsharePid(), "unshare --pid needs root on Linux").toBe(true);
    const out = join(workspace.dir, "namespaced");
    const gate = proxy.holdWhen(() => existsSync(join(out, LOCK)) && existsSync(join(out, STATE)));
    const pid = deadPid();
    // The namespace's next pid is set so that the holder's is one that is not alive out here.
    const first = spawnCli(["run", pipeline], env(out), {
      wrap: (line) => [
        "unshare",
        "--pid",
        "--fork",
        "sh",
        "-c",
        `echo ${pid - 1} > /proc/sys/kernel/ns_last_pid; "$@" & wait $!`,
        "holder",
        ...line,
      ],
    });
    await gate.reached;
    const holder = JSON.parse(await readFile(join(out, LOCK), "utf8")) as Record<string, unknown>;
    expect(holder).toMatchObject({ pid, host: hostname() });
    expect(alive(pid)).toBe(false);
    const before = await listTree(out);

    const second = spawnCli(["run", pipeline], env(out));
    expect(await second.exited, second.stderr()).toBe(75);
    expect(second.stderr()).toContain(`locked by run ${String(holder.run_id)} (pid ${pid} on ${hostname()}`);
    expect(await listTree(out)).toEqual(before);
    expect(holder).toMatchObject({ boot_id: thisProcessSpace().boot_id });
    expect(holder.pid_ns).not.toBe(thisProcessSpace().pid_ns);

    gate.release();
    expect(await first.exited, first.stderr()).toBe(0);
    expect(await listTree(out)).not.toContain(LOCK);
    const verified = await runCli(["verify", pipeline], { env: env(out) });
    expect(verified.code, verified.stdout + verified.stderr).toBe(0);
  }, 60_000);

  it("respects another host's live lease, and takes the lock over once that lease has expired", async ({
    workspace,
    pipeline,
    env,
  }) => {
    const out = join(workspace.dir, "other-host");
    const holder = {
      run_id: "r-elsewhere",
      pipeline: "nightly",
      pid: process.pid,
      host: "batch-node-7",
      since: "2026-11-22T01:00:00.000Z",
      lease_ms: 3_600_000,
    };
    await plantLock(out, { ...holder, lease_until: new Date(Date.now() + 3_600_000).toISOString() });
    const refused = await runCli(["run", pipeline], { env: env(out) });
    expect(refused.code).toBe(75);
    expect(refused.stderr).toContain("locked by run r-elsewhere (pid");
    expect(refused.stderr).toContain("on batch-node-7, since 2026-11-22T01:00:00.000Z");
    expect(await listTree(out)).toEqual([LOCK]);

    await plantLock(out, { ...holder, lease_until: new Date(Date.now() - 1_000).toISOString() });
    const taken = await runCli(["run", pipeline], { env: env(out) });
    expect(taken.code, taken.stderr).toBe(0);
    expect(await listTree(out)).not.toContain(LOCK);
  }, 30_000);
});
