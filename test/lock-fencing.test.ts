// The lock's fencing, with real processes of the built CLI: a holder paused (SIGSTOP) past its lease
// while another run takes the output over commits nothing more when it resumes, and its temporary
// files are not the new holder's to sweep; runs racing for a stale lock, one wins; a lock file that
// cannot be trusted is refused with the way out, and `run --break-lock` takes it.
import { readFile, mkdir, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";
import { describe, expect } from "vitest";
import {
  SERVICE_FROM_ENV,
  compareExactly,
  dataFiles,
  listTree,
  readNdjsonRecords,
  runCli,
  spawnCli,
  temporaryFiles,
  waitFor,
  writePipeline,
} from "./support/cli-harness.js";
import { jobsSource } from "./support/jobs-pipeline.js";
import type { Row } from "./support/cli-harness.js";
import type { GateProxy } from "./support/gate-proxy.js";
import { expectedRowsFixture, gateProxyFixture, useEmulator } from "./support/use-emulator.js";
import { liveLockHolder } from "./support/lock-holder.js";
import { readRunState } from "./support/run-state.js";
import { writerTag } from "../src/core/writer-tag.js";

const LOCK = "_mdq-export/lock.json";
const START = "2026-11-10T00:00:00Z";
const END = "2026-11-10T06:00:00Z";

const it = useEmulator({ seed: 7, density: 20 }, { preset: false }).extend<{
  /** Two gates in front of the emulator, one per competing run. */
  first: GateProxy;
  second: GateProxy;
  pipeline: string;
  truth: Map<string, Row>;
  /** The environment of a run into `out` that reaches the emulator through `proxy`. */
  env: (proxy: GateProxy, out: string) => Record<string, string>;
  /** The export in `out` read by glob equals the service's records, and `verify` passes. */
  expectExact: (out: string) => Promise<void>;
}>({
  first: gateProxyFixture(),
  second: gateProxyFixture(),
  pipeline: [
    async ({ workspace }, use) => {
      await use(await writeNightly(workspace.dir));
    },
    { scope: "file" },
  ],
  truth: expectedRowsFixture("/v3/jobs/query", [
    { application: "atr", app_type: ["ec2"], domain: ["*"], start_time: START, end_time: END },
  ]),
  env: [
    async ({ service }, use) => {
      await use((proxy, out) => ({
        ...service.env,
        MDQ_BASE_URL: proxy.url,
        MDQ_AUTH_URL: proxy.url,
        OUT: out,
      }));
    },
    { scope: "file" },
  ],
  expectExact: [
    async ({ truth, pipeline, env, first }, use) => {
      await use(async (out) => {
        expect(compareExactly(await readNdjsonRecords(out), truth)).toBeUndefined();
        const verified = await runCli(["verify", pipeline], { env: env(first, out) });
        expect(verified.code, verified.stdout + verified.stderr).toBe(0);
        const tree = await listTree(out);
        expect(temporaryFiles(tree)).toEqual([]);
        expect(tree).not.toContain(LOCK);
      });
    },
    { scope: "file" },
  ],
});

async function lockHolder(out: string): Promise<Record<string, unknown> | undefined> {
  const text = await readFile(join(out, LOCK), "utf8").catch(() => undefined);
  try {
    return text === undefined ? undefined : (JSON.parse(text) as Record<string, unknown>);
  } catch {
    return undefined;
  }
}

async function committedSlices(out: string): Promise<number> {
  return Object.keys((await readRunState(out))?.slices ?? {}).length;
}

/**
 * The state as a resume reads it (object and journal replayed). Where the journal stands is left out:
 * the run taking over folds a killed or paused run's entries into the object when it opens the state.
 */
async function stateSnapshot(out: string): Promise<string> {
  const state: Record<string, unknown> = { ...(await readRunState(out)) };
  delete state["journal_seq"];
  return JSON.stringify(state);
}

async function plantLock(out: string, body: string): Promise<void> {
  await mkdir(join(out, "_mdq-export"), { recursive: true });
  await writeFile(join(out, LOCK), body);
}

// Small pages: a slice takes several requests, so a run can be frozen with a slice half-written.
function writeNightly(dir: string): Promise<string> {
  return writePipeline(dir, {
    name: "nightly",
    service: SERVICE_FROM_ENV,
    source: jobsSource(START, END, { page_size: 10 }),
    sinks: [{ format: "ndjson", to: "${OUT}", path: "dt={date}/part-{slice}-{seq}.ndjson" }],
    limits: { concurrency: 1 },
  });
}

describe("a holder paused past its lease", () => {
  const moments = [
    { name: "between two pages of a slice", halfWritten: 1 },
    { name: "between two slices", halfWritten: 0 },
  ];
  it.for(moments)(
    "$name: commits nothing after another run took the lock over, exits 75, and keeps its temporary files from the new holder's sweep",
    { timeout: 90_000 },
    async ({ name, halfWritten: staged }, { workspace, first, second, pipeline, env, expectExact }) => {
      const out = join(workspace.dir, `paused-${name.replaceAll(" ", "-")}`);
      // Frozen at its next request once a slice is committed, with the next one half-written or not begun.
      const frozen = first.holdWhen(
        async () =>
          (await committedSlices(out)) >= 1 && temporaryFiles(await listTree(out)).length === staged,
      );
      const paused = spawnCli(["run", pipeline], { ...env(first, out), MDQ_LOCK_LEASE_MS: "1500" });
      await frozen.reached;
      paused.child.kill("SIGSTOP");
      const before = await listTree(out);
      const stateBefore = await stateSnapshot(out);
      const pausedHolder = await lockHolder(out);
      expect(pausedHolder).toMatchObject({ pid: paused.child.pid });
      const halfWritten = temporaryFiles(before);
      expect(halfWritten).toHaveLength(staged);
      // Its pending request is answered; the answer waits in the socket of the stopped process.
      frozen.release();
      await waitFor(
        async () => Date.parse(String((await lockHolder(out))?.lease_until)) < Date.now() - 100,
        "the paused run's lease to run out",
      );

      // The next run takes the lock over before it asks the service anything, opens its state and
      // sweeps leftovers once the mappings are in ("Run started."), and is held at its next request.
      const started: { cli?: ReturnType<typeof spawnCli> } = {};
      const taken = second.holdWhen(() => started.cli?.stderr().includes('"msg":"Run started."') === true);
      const next = spawnCli(["run", pipeline], env(second, out));
      started.cli = next;
      await taken.reached;
      expect(await lockHolder(out)).toMatchObject({ pid: next.child.pid });
      expect(next.stderr()).toContain("Took over the lock");
      // The paused run's files are spared; the next run may have begun files of its own by now.
      const pausedTag = `.tmp-${writerTag(String(pausedHolder?.run_id))}-`;
      const pausedFiles = async (): Promise<string[]> =>
        temporaryFiles(await listTree(out)).filter((path) => path.includes(pausedTag));
      expect(halfWritten.every((path) => path.includes(pausedTag))).toBe(true);
      expect(await pausedFiles()).toEqual(halfWritten);

      paused.child.kill("SIGCONT");
      expect(await paused.exited, paused.stderr()).toBe(75);
      expect(paused.stderr()).toMatch(/lease on the output lock ran out|took over the lock/);
      // Nothing committed, no state written after the pause; its own temporary file it removed itself.
      expect(await stateSnapshot(out)).toBe(stateBefore);
      const after = await listTree(out);
      expect(dataFiles(after)).toEqual(dataFiles(before));
      expect(await pausedFiles()).toEqual([]);
      expect(await lockHolder(out)).toMatchObject({ pid: next.child.pid });

      taken.release();
      expect(await next.exited, next.stderr()).toBe(0);
      await expectExact(out);
    },
  );
});

describe("runs racing for a stale lock", () => {
  it("lets exactly one take it over, also when a killed run left the lock's guard behind", async ({
    workspace,
    first,
    second,
    pipeline,
    env,
    expectExact,
  }) => {
    for (let round = 0; round < 3; round++) {
      const out = join(workspace.dir, `race-${round}`);
      await plantLock(
        out,
        JSON.stringify({
          run_id: "r-gone",
          pipeline: "nightly",
          pid: 4242,
          host: "batch-node-7",
          since: "2026-11-22T01:00:00.000Z",
          lease_until: new Date(Date.now() - 60_000).toISOString(),
        }),
      );
      // A guard taken a minute ago by a process killed before it released it.
      await writeFile(join(out, `${LOCK}.guard`), String(Date.now() - 60_000));
      const racers = [first, second].map((proxy) => {
        let pid = -1;
        const gate = proxy.holdWhen(async () => (await lockHolder(out))?.pid === pid);
        const cli = spawnCli(["run", pipeline], env(proxy, out));
        pid = cli.child.pid ?? -1;
        return { cli, gate };
      });
      const winner = await Promise.race(racers.map((racer) => racer.gate.reached.then(() => racer)));
      const loser = racers.find((racer) => racer !== winner);
      expect(await loser?.cli.exited, loser?.cli.stderr()).toBe(75);
      expect(loser?.cli.stderr()).toContain(`pid ${winner.cli.child.pid} on ${hostname()}`);
      loser?.gate.release();
      winner.gate.release();
      expect(await winner.cli.exited, winner.cli.stderr()).toBe(0);
      await expectExact(out);
    }
  }, 120_000);
});

describe("a lock file that cannot be trusted", () => {
  const cases = [
    {
      name: "a lease_until that is not a date",
      lock: { ...liveLockHolder("r-soon", "nightly"), lease_until: "soon" },
      says: 'its lease_until "soon" is not a date and time',
    },
    {
      name: "a lease far ahead of this host's clock",
      lock: {
        run_id: "r-future",
        pipeline: "nightly",
        pid: 4242,
        host: "batch-node-7",
        since: "2026-11-22T01:00:00.000Z",
        lease_until: new Date(Date.now() + 10 * 86_400_000).toISOString(),
      },
      says: "lies more than 3 lease periods after this host's clock",
    },
    { name: "a body that is not JSON", lock: "{ half", says: 'it is not JSON (it starts "{ half")' },
  ];

  for (const { name, lock, says } of cases) {
    it(`refuses ${name}, naming the file and --break-lock, which recovers`, async ({
      workspace,
      first,
      pipeline,
      env,
      expectExact,
    }) => {
      const out = join(workspace.dir, `untrusted-${name.replaceAll(" ", "-").replaceAll("'", "")}`);
      await plantLock(out, typeof lock === "string" ? lock : JSON.stringify(lock));
      const refused = await runCli(["run", pipeline], { env: env(first, out) });
      expect(refused.code, refused.stderr).toBe(1);
      expect(refused.stderr).toContain(`the lock ${out}/${LOCK}`);
      expect(refused.stderr).toContain(says);
      expect(refused.stderr).toContain("--break-lock");
      expect(await listTree(out)).toEqual([LOCK]);

      const broken = await runCli(["run", pipeline, "--break-lock"], { env: env(first, out) });
      expect(broken.code, broken.stderr).toBe(0);
      expect(broken.logs.some((log) => String(log.msg).startsWith("--break-lock: replaced a lock"))).toBe(
        true,
      );
      await expectExact(out);
    }, 60_000);
  }

  it("--break-lock refuses a lock whose lease still runs, and leaves it", async ({
    workspace,
    first,
    pipeline,
    env,
  }) => {
    const out = join(workspace.dir, "break-live");
    const holder = JSON.stringify(liveLockHolder("r-live", "nightly"));
    await plantLock(out, holder);
    const refused = await runCli(["run", pipeline, "--break-lock"], { env: env(first, out) });
    expect(refused.code, refused.stderr).toBe(75);
    expect(refused.stderr).toContain("--break-lock refuses to break a lock whose lease still runs");
    expect(refused.stderr).toContain("locked by run r-live");
    expect(await readFile(join(out, LOCK), "utf8")).toBe(holder);
  }, 30_000);

  it("shows the holder's run id and host escaped, control characters and NUL included", async ({
    workspace,
    first,
    pipeline,
    env,
  }) => {
    const out = join(workspace.dir, "escaped");
    await plantLock(
      out,
      JSON.stringify({
        ...liveLockHolder("r\u0000\u001b[2Kforged\nline", "nightly"),
        host: "node\r7",
        pid: 4242,
      }),
    );
    const refused = await runCli(["run", pipeline], { env: env(first, out) });
    expect(refused.code, refused.stderr).toBe(75);
    expect(refused.stderr).toContain(
      String.raw`locked by run r\u0000\u001b[2Kforged\nline (pid 4242 on node\r7`,
    );
    for (const raw of ["\u0000", "\u001b", "\r"]) expect(refused.stderr).not.toContain(raw);
  }, 30_000);
});
