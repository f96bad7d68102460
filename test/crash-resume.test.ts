// Kills the built CLI (`npm test` builds first) at chosen moments of a run — while fetching, while a
// slice's files are being written, in the middle of a slice's commit — and with SIGTERM, then reruns
// it: the output must be exactly the service's records, once each, with no temporary file left, and
// the state and manifest must describe exactly the files present.
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect } from "vitest";
import {
  SERVICE_FROM_ENV,
  compareExactly,
  dataFiles,
  listTree,
  readJson,
  readNdjsonRecords,
  runCli,
  spawnCli,
  temporaryFiles,
  waitFor,
  writePipeline,
} from "./support/cli-harness.js";
import { readRunState } from "./support/run-state.js";
import type { Row, TestService, Workspace } from "./support/cli-harness.js";
import { jobsPitSource } from "./support/jobs-pipeline.js";
import { useJobsEmulator } from "./support/use-emulator.js";

const START = "2026-11-20T00:00:00Z";
const END = "2026-11-20T06:00:00Z";
const SLICES = 6;

const it = useJobsEmulator(
  { seed: 3, density: 40 },
  { application: "atr", app_type: ["ec2", "kubernetes"], domain: ["*"], start_time: START, end_time: END },
);

async function setUp(
  workspace: Workspace,
  name: string,
  sink: Record<string, unknown> = {},
): Promise<{ file: string; out: string }> {
  const dir = await workspace.folder(`crash-${name}`);
  const out = join(dir, "out");
  const file = await writePipeline(dir, {
    name: `crash-${name}`,
    service: SERVICE_FROM_ENV,
    source: jobsPitSource(START, END, 20),
    sinks: [{ format: "ndjson", to: out, path: "dt={date}/part-{slice}-{seq}.{ext}", ...sink }],
    limits: { concurrency: 2 },
  });
  return { file, out };
}

interface StateFile {
  slices: Record<string, { files: { path: string; rows: number; sha256: string }[] }>;
}

async function readState(out: string): Promise<StateFile | undefined> {
  return (await readRunState(out)) as StateFile | undefined;
}

/** After a completed rerun: exact records, no temporary file, and state and manifest match the files. */
async function expectExactAndConsistent(expected: Map<string, Row>, out: string): Promise<void> {
  expect(compareExactly(await readNdjsonRecords(out), expected)).toBeUndefined();
  const tree = await listTree(out);
  expect(temporaryFiles(tree)).toEqual([]);
  const state = await readState(out);
  expect(Object.keys(state?.slices ?? {})).toHaveLength(SLICES);
  const stateFiles = Object.values(state?.slices ?? {}).flatMap((slice) => slice.files);
  expect(stateFiles.map((file) => file.path).sort()).toEqual(dataFiles(tree));
  for (const file of stateFiles) {
    const bytes = await readFile(join(out, file.path));
    expect(createHash("sha256").update(bytes).digest("hex"), file.path).toBe(file.sha256);
  }
  const manifest = await readJson(join(out, "_manifest.json"));
  expect(manifest.complete).toBe(true);
  expect((manifest.files as { path: string }[]).map((file) => file.path).sort()).toEqual(dataFiles(tree));
  expect(tree).toContain("_SUCCESS");
}

async function rerun(service: TestService, file: string): Promise<void> {
  const result = await runCli(["run", file], { env: service.env });
  expect(result.code, result.stderr).toBe(0);
}

describe("SIGKILL at any moment, then a rerun", () => {
  it("while fetching: nothing is visible, and the rerun is exact", async ({
    service,
    workspace,
    expected,
  }) => {
    const { file, out } = await setUp(workspace, "fetch");
    service.emulator.setFaults({ latencyMs: 40 });
    try {
      const before = service.emulator.requestCount("/v3/jobs/query");
      const cli = spawnCli(["run", file], service.env);
      await waitFor(() => service.emulator.requestCount("/v3/jobs/query") >= before + 3, "query requests");
      cli.child.kill("SIGKILL");
      expect(await cli.exited).toBe("SIGKILL");
    } finally {
      service.emulator.setFaults({});
    }
    expect(dataFiles(await listTree(out))).toEqual([]);
    await rerun(service, file);
    await expectExactAndConsistent(expected, out);
  });

  it("while writing: hidden temporary files are left, and the rerun removes them and is exact", async ({
    service,
    workspace,
    expected,
  }) => {
    const { file, out } = await setUp(workspace, "write");
    service.emulator.setFaults({ latencyMs: 30 });
    try {
      const cli = spawnCli(["run", file], service.env);
      // A temporary file seen may be renamed before a kill lands: freeze the run first, and kill it
      // only while one is there (otherwise let it go on to the next).
      for (;;) {
        await waitFor(async () => temporaryFiles(await listTree(out)).length > 0, "a temporary file");
        cli.child.kill("SIGSTOP");
        if (temporaryFiles(await listTree(out)).length > 0) break;
        cli.child.kill("SIGCONT");
      }
      cli.child.kill("SIGKILL");
      await cli.exited;
    } finally {
      service.emulator.setFaults({});
    }
    const left = await listTree(out);
    expect(temporaryFiles(left).length).toBeGreaterThan(0);
    // Nothing partial under a final name: every visible data file belongs to a committed slice.
    const state = await readState(out);
    const committed = Object.values(state?.slices ?? {}).flatMap((slice) => slice.files.map((f) => f.path));
    expect(dataFiles(left).filter((path) => !committed.includes(path))).toEqual([]);
    await rerun(service, file);
    await expectExactAndConsistent(expected, out);
  });

  it.for([
    ["its files", {}],
    // A new run id names the redone slice's files anew: the killed commit's files must still go.
    [
      "under {run_id} names, the killed commit's files",
      { path: "dt={date}/run={run_id}/part-{slice}-{seq}.{ext}" },
    ],
  ] as const)(
    "in the middle of a commit: the rerun redoes the slice, replacing %s, and is exact",
    async ([, path], { service, workspace, expected }) => {
      // Many small files per slice make a commit (rename + directory fsync per file) long enough to catch.
      const { file, out } = await setUp(workspace, "commit", { max_rows_per_file: 2, ...path });
      service.emulator.setFaults({ latencyMs: 10 });
      let caught: string | undefined;
      try {
        const cli = spawnCli(["run", file], service.env);
        caught = await waitFor(async () => {
          const visible = dataFiles(await listTree(out));
          const state = await readState(out);
          const committed = new Set(Object.keys(state?.slices ?? {}));
          // A final file of a slice the state does not hold yet: the slice is being committed.
          return visible.find((path) => !committed.has(/part-(\w+)-\d+/.exec(path)?.[1] ?? ""));
        }, "a slice in the middle of its commit");
        cli.child.kill("SIGKILL");
        await cli.exited;
      } finally {
        service.emulator.setFaults({});
      }
      expect(caught).toBeDefined();
      await rerun(service, file);
      await expectExactAndConsistent(expected, out);
    },
  );
});

describe("SIGTERM", () => {
  it("exits 75 with no temporary file left and the state written; the rerun resumes and is exact", async ({
    service,
    workspace,
    expected,
  }) => {
    const { file, out } = await setUp(workspace, "term");
    service.emulator.setFaults({ latencyMs: 30 });
    let stderr = "";
    try {
      const cli = spawnCli(["run", file, "--log-level", "debug"], service.env);
      // Once one slice is committed and others are being written.
      await waitFor(async () => {
        const state = await readState(out);
        return Object.keys(state?.slices ?? {}).length >= 1 && temporaryFiles(await listTree(out)).length > 0;
      }, "a committed slice and one in flight");
      cli.child.kill("SIGTERM");
      expect(await cli.exited).toBe(75);
      stderr = cli.stderr();
    } finally {
      service.emulator.setFaults({});
    }
    expect(stderr).toMatch(/SIGTERM received/);
    expect(stderr).toMatch(/run the same command again to resume/);
    const tree = await listTree(out);
    expect(temporaryFiles(tree)).toEqual([]);
    const state = await readState(out);
    const committed = Object.keys(state?.slices ?? {});
    expect(committed.length).toBeGreaterThanOrEqual(1);
    expect(committed.length).toBeLessThan(SLICES);
    const manifest = await readJson(join(out, "_manifest.json"));
    expect(manifest.complete).toBe(false);
    expect(tree).not.toContain("_SUCCESS");

    const before = service.emulator.requestCount("/v3/jobs/query");
    await rerun(service, file);
    await expectExactAndConsistent(expected, out);
    // Committed slices were not fetched again: fewer queries than a full run of six slices needs.
    const resumedQueries = service.emulator.requestCount("/v3/jobs/query") - before;
    const fullRunQueries = Math.ceil(expected.size / 20) + SLICES;
    expect(resumedQueries).toBeLessThan(fullRunQueries);
  });
});
