// The commit protocol under kill -9 at every step of a commit, with `{run_id}` in the path (so a
// rerun writes a slice under new names): the built CLI is paused at a named step by its test hook
// (MDQ_TEST_PAUSE_AT, docs/operations.md) and killed there, then run again. The output read by glob,
// as a warehouse reads it, must be the service's records once each, and `verify` must pass.
import { readdir } from "node:fs/promises";
import { GetObjectCommand, ListObjectsV2Command } from "@aws-sdk/client-s3";
import { join } from "node:path";
import { describe, expect } from "vitest";
import {
  SERVICE_FROM_ENV,
  TEST_HOOKS_CLI_ENTRY,
  compareExactly,
  dataFiles,
  expectedRows,
  listTree,
  readJson,
  readNdjsonRecords,
  runCli,
  spawnCli,
  temporaryFiles,
  waitFor,
  writePipeline,
} from "./support/cli-harness.js";
import { jobsSource, logsBatchSource } from "./support/jobs-pipeline.js";
import type { Row, TestService } from "./support/cli-harness.js";
import { readRunState } from "./support/run-state.js";
import { startS3Server } from "./support/s3-server.js";
import { serviceFixture, useEmulator } from "./support/use-emulator.js";

const START = "2026-11-20T00:00:00Z";
const END = "2026-11-20T04:00:00Z";
const PATH = "dt={date}/run={run_id}/part-{slice}-{seq}.{ext}";
type Strategy = "paged" | "batch";

interface Setup {
  service: TestService;
  expected: Map<string, Row>;
  pipeline(out: string): object;
}

const it = useEmulator().extend<{
  pagedService: TestService;
  batchService: TestService;
  setupOf: (strategy: Strategy) => Setup;
}>({
  pagedService: serviceFixture({ seed: 31, density: 30 }),
  // Two 2-hour slices of four half-hour partitions each: parts commit one by one, then are merged.
  batchService: serviceFixture({
    seed: 32,
    density: 60,
    batchPartitionSeconds: 1800,
    batchReadyAfterPolls: 0,
  }),
  setupOf: [
    async ({ pagedService: paged, batchService: batch }, use) => {
      const setups = new Map<Strategy, Setup>();
      setups.set("paged", {
        service: paged,
        expected: await expectedRows(paged.emulator, "/v3/jobs/query", [
          { application: "atr", app_type: ["ec2"], domain: ["*"], start_time: START, end_time: END },
        ]),
        pipeline: (out) => ({
          name: "commit-paged",
          service: SERVICE_FROM_ENV,
          source: jobsSource(START, END, { page_size: 20 }),
          // Several files per slice, so a kill can fall between two renames of one commit.
          sinks: [{ format: "ndjson", to: out, path: PATH, max_rows_per_file: 10 }],
          limits: { concurrency: 1 },
        }),
      });
      setups.set("batch", {
        service: batch,
        expected: await expectedRows(batch.emulator, "/v2/logs/scroll", [
          { application: "atr", app_type: "ec2", domain: ["*"], start_time: START, end_time: END },
        ]),
        pipeline: (out) => ({
          name: "commit-batch",
          service: SERVICE_FROM_ENV,
          source: logsBatchSource(START, END, "2h"),
          sinks: [{ format: "ndjson", to: out, path: PATH }],
          limits: { concurrency: 1 },
        }),
      });
      await use((strategy) => {
        const setup = setups.get(strategy);
        if (setup === undefined) throw new Error(`no service for ${strategy}`);
        return setup;
      });
    },
    { scope: "file" },
  ],
});

/** Runs the CLI until the hook pauses it at `step`, then kills it with SIGKILL. */
async function killAt(file: string, service: TestService, step: string): Promise<void> {
  const cli = spawnCli(
    ["run", file],
    { ...service.env, MDQ_TEST_PAUSE_AT: step },
    {
      entry: TEST_HOOKS_CLI_ENTRY,
    },
  );
  let exited: number | NodeJS.Signals | undefined;
  void cli.exited.then((code) => (exited = code));
  await waitFor(() => {
    if (exited !== undefined) throw new Error(`the run ended (${exited}) before ${step}:\n${cli.stderr()}`);
    return cli.stderr().includes(`paused at ${step.split("#")[0]}`);
  }, `the run paused at ${step}`);
  cli.child.kill("SIGKILL");
  expect(await cli.exited).toBe("SIGKILL");
}

/** Data files no committed slice (nor a batch export's committed progress) of the state holds. */
async function unaccountedFiles(out: string): Promise<string[]> {
  const state = await readRunState(out);
  const held = new Set<string>();
  for (const slice of Object.values(state?.slices ?? {}))
    for (const file of slice["files"] as { path: string }[]) held.add(file.path);
  for (const batch of Object.values(state?.batches ?? {})) {
    const parts = Object.values((batch["parts"] ?? {}) as Record<string, { files: { path: string }[] }>);
    for (const file of parts.flatMap((part) => part.files)) held.add(file.path);
    for (const file of (batch["merged"] ?? []) as { path: string }[]) held.add(file.path);
  }
  return dataFiles(await listTree(out)).filter((path) => !held.has(path));
}

const PAGED_STEPS = [
  "commit-staged#2",
  "commit-intent#2",
  "commit-rename#3",
  "commit-renamed#2",
  "state-entry#3",
  "state-entry#4",
  "state-compacted#2",
];
const BATCH_STEPS = [
  "commit-intent#3",
  "commit-rename#2",
  "commit-renamed#3",
  "commit-renamed#5",
  "commit-rename#9",
  "state-entry#6",
  "state-entry#9",
  "state-compacted#2",
];

describe.each([
  ["paged", PAGED_STEPS],
  ["batch", BATCH_STEPS],
] as const)("kill -9 at each step of a commit (%s, {run_id} in the path)", (strategy, steps) => {
  it.for(steps)(
    "at %s: the rerun leaves exactly the records, and verify passes",
    async (step, { workspace, setupOf }) => {
      const { service, expected, pipeline } = setupOf(strategy);
      expect(expected.size).toBeGreaterThan(40);
      const dir = await workspace.folder(`commit-${strategy}`);
      const out = join(dir, "out");
      const file = await writePipeline(dir, pipeline(out));
      await killAt(file, service, step);

      const rerun = await runCli(["run", file], { env: service.env });
      expect(rerun.code, rerun.stderr).toBe(0);
      expect(compareExactly(await readNdjsonRecords(out), expected)).toBeUndefined();
      const tree = await listTree(out);
      expect(temporaryFiles(tree)).toEqual([]);
      expect(await unaccountedFiles(out)).toEqual([]);
      // The journal is folded into the state object at the end of the run.
      const journal = await readdir(join(out, "_mdq-export/state.journal")).catch(() => []);
      expect(journal).toEqual([]);
      const verified = await runCli(["verify", file], { env: service.env });
      expect(verified.code, verified.stdout + verified.stderr).toBe(0);
    },
  );
});

describe("a killed commit's files under {run_id} names", () => {
  it("are files no committed slice holds until the rerun removes them", async ({ workspace, setupOf }) => {
    // The situation the protocol exists for: after a kill between the renames and the state's record,
    // the renamed files are visible, and a rerun (a new run id) would write the slice under new names.
    const { service, pipeline } = setupOf("paged");
    const dir = await workspace.folder("commit-orphans");
    const out = join(dir, "out");
    const file = await writePipeline(dir, pipeline(out));
    await killAt(file, service, "commit-renamed#2");
    const left = await unaccountedFiles(out);
    expect(left.length).toBeGreaterThan(0);
    expect((await readRunState(out))?.["pending"]).toHaveProperty([
      /part-(\w+)-\d+/.exec(left[0] ?? "")?.[1] ?? "",
    ]);
    const rerun = await runCli(["run", file], { env: service.env });
    expect(rerun.code, rerun.stderr).toBe(0);
    const tree = await listTree(out);
    for (const path of left) expect(tree).not.toContain(path);
  });
});

describe("a killed commit of a slice the next run's window leaves out", () => {
  it("is swept all the same: the manifest lists exactly the files present, and verify passes", async ({
    workspace,
    setupOf,
  }) => {
    // A relative window moves on between runs: the killed slice may not be in the next one.
    const { service, pipeline } = setupOf("paged");
    const dir = await workspace.folder("commit-moved");
    const out = join(dir, "out");
    const file = await writePipeline(dir, pipeline(out));
    await killAt(file, service, "commit-renamed#2");
    const left = await unaccountedFiles(out);
    expect(left.length).toBeGreaterThan(0);

    const later = await runCli(["run", file, "--start", "2026-11-20T02:00:00Z"], { env: service.env });
    expect(later.code, later.stderr).toBe(0);
    const files = dataFiles(await listTree(out));
    for (const path of left) expect(files).not.toContain(path);
    expect(await unaccountedFiles(out)).toEqual([]);
    const manifest = (await readJson(join(out, "_manifest.json"))) as { files: { path: string }[] };
    expect(manifest.files.map((entry) => entry.path).sort()).toEqual(files);
    const verified = await runCli(["verify", file], { env: service.env });
    expect(verified.code, verified.stdout + verified.stderr).toBe(0);
  });
});

describe("kill -9 in a commit to S3, {run_id} in the path", () => {
  it("the rerun removes the completed uploads the killed commit left; the bucket holds each record once", async ({
    workspace,
    setupOf,
  }) => {
    const s3 = await startS3Server();
    try {
      s3.createBucket("exports");
      const { service, expected, pipeline } = setupOf("paged");
      const dir = await workspace.folder("commit-s3");
      const to = "s3://exports/commit";
      const base = pipeline(to) as { sinks: Record<string, unknown>[] };
      const file = await writePipeline(dir, {
        ...base,
        sinks: base.sinks.map((sink) => ({
          ...sink,
          s3: { endpoint: s3.endpoint, region: "us-east-1", force_path_style: true },
        })),
      });
      const env = { ...service.env, AWS_ACCESS_KEY_ID: "test", AWS_SECRET_ACCESS_KEY: "test" };
      await killAt(file, { ...service, env }, "commit-renamed#2");

      const rerun = await runCli(["run", file], { env });
      expect(rerun.code, rerun.stderr).toBe(0);
      const listed = await s3.client.send(new ListObjectsV2Command({ Bucket: "exports", Prefix: "commit/" }));
      const keys = (listed.Contents ?? []).map((object) => object.Key ?? "");
      const data = keys.filter((key) => key.endsWith(".ndjson")).sort();
      const rows: Row[] = [];
      for (const key of data) {
        const object = await s3.client.send(new GetObjectCommand({ Bucket: "exports", Key: key }));
        const text = await (object.Body as { transformToString(): Promise<string> }).transformToString();
        for (const line of text.split("\n")) if (line !== "") rows.push(JSON.parse(line) as Row);
      }
      expect(compareExactly(rows, expected)).toBeUndefined();
      const manifest = await s3.client.send(
        new GetObjectCommand({ Bucket: "exports", Key: "commit/_manifest.json" }),
      );
      const listedFiles = (
        JSON.parse(await (manifest.Body as { transformToString(): Promise<string> }).transformToString()) as {
          files: { path: string }[];
        }
      ).files.map((entry) => `commit/${entry.path}`);
      expect(listedFiles.sort()).toEqual(data);
      expect(keys.filter((key) => key.includes("state.journal/"))).toEqual([]);
      const verified = await runCli(["verify", file], { env });
      expect(verified.code, verified.stdout + verified.stderr).toBe(0);
    } finally {
      await s3.stop();
    }
  });
});
