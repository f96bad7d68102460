// A sharded backfill as a scheduler runs it: n processes of the built CLI against one service, each
// taking its index from `--shard i/n` or from the scheduler's variable, then `merge-manifests`. The
// union of the shards' output is the single-process export, file for file, with no record twice, and
// `_SUCCESS` appears only once the merge has seen every shard complete.
import { readFile, rename, rm, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";
import { describe, expect } from "vitest";
import {
  dataFiles,
  listTree,
  readJson,
  readNdjsonRecords,
  runCli,
  SERVICE_FROM_ENV,
  spawnCli,
  writePipeline,
} from "./support/cli-harness.js";
import { liveLockHolder } from "./support/lock-holder.js";
import { useEmulator } from "./support/use-emulator.js";

const SHARDS = 3;
// Ten hourly slices: shards of 4, 3 and 3.
const WINDOW = { start: "2026-11-10T00:00:00Z", end: "2026-11-10T10:00:00Z", slice: "1h" };

interface ManifestFile {
  path: string;
  slice: string;
  rows: number;
  sha256: string;
}

async function manifestFiles(path: string): Promise<ManifestFile[]> {
  const manifest = await readJson(path);
  return (manifest.files as ManifestFile[])
    .map(({ path: file, slice, rows, sha256 }) => ({ path: file, slice, rows, sha256 }))
    .sort((a, b) => a.path.localeCompare(b.path));
}

const it = useEmulator({ seed: 11, density: 40 }, { preset: false }).extend<{
  /** The environment of a run into `out`. */
  env: (out: string, extra?: Record<string, string>) => Record<string, string>;
  pipeline: string;
  /** The output of the same backfill in one process, the reference the shards are compared with. */
  single: string;
}>({
  env: [
    async ({ service }, use) => {
      await use((out, extra = {}) => ({ ...service.env, OUT: out, ...extra }));
    },
    { scope: "file" },
  ],
  pipeline: [
    async ({ workspace }, use) => {
      await use(await writeBackfill(workspace.dir));
    },
    { scope: "file" },
  ],
  single: [
    async ({ workspace, pipeline, env }, use) => {
      const single = join(workspace.dir, "single");
      const reference = await runCli(["run", pipeline], { env: env(single) });
      expect(reference.code, reference.stderr).toBe(0);
      await use(single);
    },
    { scope: "file" },
  ],
});

function writeBackfill(dir: string): Promise<string> {
  return writePipeline(dir, {
    name: "backfill",
    service: SERVICE_FROM_ENV,
    source: {
      kind: "jobs",
      application: "atr",
      app_type: ["ec2", "kubernetes"],
      domain: ["*"],
      window: WINDOW,
      strategy: "pit",
      page_size: 100,
    },
    transforms: [{ flatten: {} }],
    sinks: [{ format: "ndjson", to: "${OUT}", path: "dt={date}/part-{slice}-{seq}.ndjson" }],
    limits: { concurrency: 2 },
  });
}

describe("a backfill in shards", () => {
  it("runs as n concurrent processes whose merged output equals the single-process export", async ({
    workspace,
    pipeline,
    env,
    single,
  }) => {
    const sharded = join(workspace.dir, "sharded");
    // Shard 0 from the flag, shard 1 as an AWS Batch array child, shard 2 as a Kubernetes Indexed Job pod.
    const shards = [
      spawnCli(["run", pipeline, "--shard", `0/${SHARDS}`], env(sharded)),
      spawnCli(
        ["run", pipeline],
        env(sharded, { MDQ_SHARD_COUNT: `${SHARDS}`, AWS_BATCH_JOB_ARRAY_INDEX: "1" }),
      ),
      spawnCli(["run", pipeline, "--shard-count", `${SHARDS}`], env(sharded, { JOB_COMPLETION_INDEX: "2" })),
    ];
    const codes = await Promise.all(shards.map((shard) => shard.exited));
    expect(codes, shards.map((shard) => shard.stderr()).join("\n")).toEqual([0, 0, 0]);

    const before = await listTree(sharded);
    for (let index = 0; index < SHARDS; index++) {
      expect(before).toContain(`_manifest.shard-${index}-of-${SHARDS}.json`);
      expect(before).toContain(`_SUCCESS.shard-${index}-of-${SHARDS}`);
      expect(before).toContain(`_mdq-export/state.shard-${index}-of-${SHARDS}.json`);
    }
    expect(before).not.toContain("_SUCCESS");
    expect(before).not.toContain("_manifest.json");

    // Every slice on exactly one shard: 4, 3 and 3 of the ten.
    const perShard = await Promise.all(
      [0, 1, 2].map(async (index) => {
        const manifest = await readJson(join(sharded, `_manifest.shard-${index}-of-${SHARDS}.json`));
        return (manifest.slices as { id: string }[]).map((slice) => slice.id);
      }),
    );
    expect(perShard.map((ids) => ids.length)).toEqual([4, 3, 3]);
    expect(new Set(perShard.flat()).size).toBe(10);

    const merged = await runCli(["merge-manifests", pipeline, "--shard-count", `${SHARDS}`], {
      env: env(sharded),
    });
    expect(merged.code, merged.stderr).toBe(0);
    expect(merged.stdout).toMatch(/merged 3\/3 shard manifests .*_SUCCESS written/);

    // The same files, byte for byte, as one process wrote, and the same records once each.
    const files = dataFiles(await listTree(sharded));
    expect(files).toEqual(dataFiles(await listTree(single)));
    expect(files.length).toBeGreaterThanOrEqual(10);
    for (const file of files) {
      expect(await readFile(join(sharded, file)), file).toEqual(await readFile(join(single, file)));
    }
    const rows = await readNdjsonRecords(sharded);
    const ids = rows.map((row) => String(row._id));
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.sort()).toEqual((await readNdjsonRecords(single)).map((row) => String(row._id)).sort());
    expect(ids.length).toBeGreaterThan(100);

    // The merged manifest is the single run's: the same files, rows and checksums, complete.
    const manifest = await readJson(join(sharded, "_manifest.json"));
    const reference = await readJson(join(single, "_manifest.json"));
    expect(manifest.complete).toBe(true);
    expect(manifest.totals).toEqual(reference.totals);
    expect(await manifestFiles(join(sharded, "_manifest.json"))).toEqual(
      await manifestFiles(join(single, "_manifest.json")),
    );
    expect(await listTree(sharded)).toContain("_SUCCESS");

    const verified = await runCli(["verify", pipeline], { env: env(sharded) });
    expect(verified.code, verified.stdout + verified.stderr).toBe(0);
  }, 60_000);

  it("writes no _SUCCESS while a shard's manifest is missing, and a rerun shard resumes", async ({
    workspace,
    pipeline,
    env,
    single,
  }) => {
    const out = join(workspace.dir, "partial");
    for (const index of [0, 1]) {
      const result = await runCli(["run", pipeline, "--shard", `${index}/${SHARDS}`], { env: env(out) });
      expect(result.code, result.stderr).toBe(0);
    }
    const merged = await runCli(["merge-manifests", pipeline, "--shard-count", `${SHARDS}`], {
      env: env(out),
    });
    expect(merged.code).toBe(75);
    expect(merged.stderr).toMatch(/_manifest\.shard-2-of-3\.json is missing \(shard 2 has not run\)/);
    expect(await listTree(out)).not.toContain("_SUCCESS");
    expect((await readJson(join(out, "_manifest.json"))).complete).toBe(false);

    // Shard 1 again: its slices are committed, so it requests nothing more for them and still succeeds.
    const rerun = await runCli(["run", pipeline, "--shard", `1/${SHARDS}`], { env: env(out) });
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(rerun.logs.find((log) => log.msg === "Run complete.")).toMatchObject({ records: 0 });

    const last = await runCli(["run", pipeline, "--shard", `2/${SHARDS}`], { env: env(out) });
    expect(last.code, last.stderr).toBe(0);
    // Hide shard 0's manifest: the merge refuses to call the backfill complete without it.
    const manifest0 = join(out, `_manifest.shard-0-of-${SHARDS}.json`);
    await rename(manifest0, `${manifest0}.aside`);
    const withoutFirst = await runCli(["merge-manifests", pipeline, "--shard-count", `${SHARDS}`], {
      env: env(out),
    });
    expect(withoutFirst.code).toBe(75);
    expect(await listTree(out)).not.toContain("_SUCCESS");
    await rename(`${manifest0}.aside`, manifest0);

    // A run without shards writing the same output holds its lock: the merge waits its turn.
    const lock = join(out, "_mdq-export/lock.json");
    await writeFile(lock, JSON.stringify(liveLockHolder("r-nightly", "backfill")));
    const before = await readFile(join(out, "_manifest.json"), "utf8");
    const locked = await runCli(["merge-manifests", pipeline, "--shard-count", `${SHARDS}`], {
      env: env(out),
    });
    expect(locked.code).toBe(75);
    expect(locked.stderr).toContain(`locked by run r-nightly (pid ${process.pid} on ${hostname()}`);
    expect(await readFile(join(out, "_manifest.json"), "utf8")).toBe(before);
    expect(await listTree(out)).not.toContain("_SUCCESS");
    await rm(lock);

    const complete = await runCli(["merge-manifests", pipeline, "--shard-count", `${SHARDS}`], {
      env: env(out),
    });
    expect(complete.code, complete.stderr).toBe(0);
    expect(await listTree(out)).toContain("_SUCCESS");
    expect(await listTree(out)).not.toContain("_mdq-export/lock.json");
    expect(await manifestFiles(join(out, "_manifest.json"))).toEqual(
      await manifestFiles(join(single, "_manifest.json")),
    );
  }, 60_000);
});
