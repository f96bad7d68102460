// `--force` over part of the output: the forced window's slices are redone and replace their files;
// every other committed slice stays in the state and the manifest, so the manifest lists exactly the
// files present, verify passes, and the next plain run has nothing to redo. After a pipeline change a
// partial force is refused: it would leave two pipelines' files side by side.
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
  waitFor,
  writePipeline,
} from "./support/cli-harness.js";
import { jobsSource } from "./support/jobs-pipeline.js";
import { readRunState } from "./support/run-state.js";
import { useJobsEmulator } from "./support/use-emulator.js";

const START = "2026-11-20T00:00:00Z";
const END = "2026-11-20T06:00:00Z";
const SLICES = 6;

const it = useJobsEmulator(
  { seed: 41, density: 20 },
  { application: "atr", app_type: ["ec2"], domain: ["*"], start_time: START, end_time: END },
);

function pipeline(out: string, transforms: object[] = []): object {
  return {
    name: "force-window",
    service: SERVICE_FROM_ENV,
    source: jobsSource(START, END, { page_size: 50 }),
    transforms,
    // A new run id names the forced slice's files anew, so its old files must be removed by name.
    sinks: [{ format: "ndjson", to: out, path: "dt={date}/run={run_id}/part-{slice}-{seq}.{ext}" }],
  };
}

async function manifestFiles(out: string): Promise<string[]> {
  const manifest = await readJson(join(out, "_manifest.json"));
  return (manifest.files as { path: string }[]).map((file) => file.path).sort();
}

describe("--force over one hour of a six-hour output", () => {
  it("redoes that hour and keeps the other slices in the state and the manifest", async ({
    service,
    workspace,
    expected,
  }) => {
    const dir = await workspace.folder("force-window");
    const out = join(dir, "out");
    const file = await writePipeline(dir, pipeline(out));
    const first = await runCli(["run", file], { env: service.env });
    expect(first.code, first.stderr).toBe(0);
    const before = dataFiles(await listTree(out));

    const forced = await runCli(
      ["run", file, "--force", "--start", "2026-11-20T02:00:00Z", "--end", "2026-11-20T03:00:00Z"],
      { env: service.env },
    );
    expect(forced.code, forced.stderr).toBe(0);
    const tree = await listTree(out);
    const files = dataFiles(tree);
    // The forced hour has new names; its old files are gone, every other file is untouched.
    const hour = (path: string): boolean => path.includes("part-20261120T020000Z");
    expect(files.filter((path) => !hour(path))).toEqual(before.filter((path) => !hour(path)));
    expect(files.filter(hour)).not.toEqual(before.filter(hour));
    expect(files.filter(hour).length).toBeGreaterThan(0);
    expect(Object.keys((await readRunState(out))?.slices ?? {})).toHaveLength(SLICES);
    expect(await manifestFiles(out)).toEqual(files);
    expect(compareExactly(await readNdjsonRecords(out), expected)).toBeUndefined();
    const verified = await runCli(["verify", file], { env: service.env });
    expect(verified.code, verified.stdout + verified.stderr).toBe(0);

    // The next plain run over the whole window finds everything committed.
    const requests = service.emulator.requestCount("/v3/jobs/query");
    const again = await runCli(["run", file], { env: service.env });
    expect(again.code, again.stderr).toBe(0);
    expect(service.emulator.requestCount("/v3/jobs/query")).toBe(requests);
    expect(dataFiles(await listTree(out))).toEqual(files);
    expect((await readJson(join(out, "_manifest.json"))).complete).toBe(true);
  });

  it("stopped midway, lists the old files it has not replaced yet: verify passes, and the rerun is exact", async ({
    service,
    workspace,
    expected,
  }) => {
    const dir = await workspace.folder("force-stopped");
    const out = join(dir, "out");
    const file = await writePipeline(dir, pipeline(out));
    expect((await runCli(["run", file], { env: service.env })).code).toBe(0);
    const before = dataFiles(await listTree(out));

    service.emulator.setFaults({ latencyMs: 30 });
    const controller = new AbortController();
    const forced = runCli(["run", file, "--force"], { env: service.env, signal: controller.signal });
    try {
      await waitFor(
        async () => dataFiles(await listTree(out)).some((path) => !before.includes(path)),
        "a slice redone under new names",
      );
      controller.abort();
      expect((await forced).code).toBe(75);
    } finally {
      service.emulator.setFaults({});
    }
    const files = dataFiles(await listTree(out));
    expect(files.some((path) => before.includes(path))).toBe(true);
    expect(await manifestFiles(out)).toEqual(files);
    const verified = await runCli(["verify", file], { env: service.env });
    expect(verified.code, verified.stdout + verified.stderr).toBe(0);

    const rerun = await runCli(["run", file], { env: service.env });
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(compareExactly(await readNdjsonRecords(out), expected)).toBeUndefined();
    expect(await manifestFiles(out)).toEqual(dataFiles(await listTree(out)));
  });

  it("after a pipeline change is refused with exit 2 and nothing touched; forcing the whole output works", async ({
    service,
    workspace,
    expected,
  }) => {
    const dir = await workspace.folder("force-changed");
    const out = join(dir, "out");
    const file = await writePipeline(dir, pipeline(out));
    expect((await runCli(["run", file], { env: service.env })).code).toBe(0);
    const before = await listTree(out);

    await writePipeline(dir, pipeline(out, [{ add: { origin: { value: "mdq" } } }]));
    const partial = await runCli(
      ["run", file, "--force", "--start", "2026-11-20T02:00:00Z", "--end", "2026-11-20T03:00:00Z"],
      { env: service.env },
    );
    expect(partial.code).toBe(2);
    expect(partial.stderr).toMatch(
      /5 committed slice\(s\) from 2026-11-20T00:00:00.000Z to 2026-11-20T06:00:00.000Z/,
    );
    expect(partial.stderr).toMatch(/outside the forced window/);
    expect(await listTree(out)).toEqual(before);

    const whole = await runCli(["run", file, "--force"], { env: service.env });
    expect(whole.code, whole.stderr).toBe(0);
    const shaped = new Map([...expected].map(([id, row]) => [id, { ...row, origin: "mdq" }]));
    expect(compareExactly(await readNdjsonRecords(out), shaped)).toBeUndefined();
    const verified = await runCli(["verify", file], { env: service.env });
    expect(verified.code, verified.stdout + verified.stderr).toBe(0);
  });
});

// Slices are matched with the state by id (their start). A window cut on another grid planned ids
// that overlapped committed slices: `run --start 00:30` exported 00:30–01:00 again beside slice 00:00,
// `--force` over 02:30–03:30 left the old files of 02:00 and 03:00 beside the new ones, and a slice
// length changed from 1h to 3h wrote hours 01:00 and 02:00 twice, and `--force` over 04:00–04:30
// dropped 04:30–05:00 with the manifest complete; each exited 0 and verify passed.
describe("a window off the committed slice grid", () => {
  it("is refused with exit 2 before anything is written, naming both slices", async ({
    service,
    workspace,
    expected,
  }) => {
    const dir = await workspace.folder("grid");
    const out = join(dir, "out");
    const file = await writePipeline(dir, pipeline(out));
    expect((await runCli(["run", file], { env: service.env })).code).toBe(0);
    const before = await listTree(out);

    const attempts: { argv: string[]; planned: string; committed: string }[] = [
      {
        argv: ["--start", "2026-11-20T00:30:00Z", "--end", "2026-11-20T01:30:00Z"],
        planned: "20261120T003000Z",
        committed: "20261120T000000Z",
      },
      {
        argv: ["--force", "--start", "2026-11-20T02:30:00Z", "--end", "2026-11-20T03:30:00Z"],
        planned: "20261120T023000Z",
        committed: "20261120T020000Z",
      },
      {
        // Same id, half the range: the forced redo would drop 04:30–05:00 and still say complete.
        argv: ["--force", "--start", "2026-11-20T04:00:00Z", "--end", "2026-11-20T04:30:00Z"],
        planned: "20261120T040000Z",
        committed: "20261120T040000Z",
      },
    ];
    for (const attempt of attempts) {
      const result = await runCli(["run", file, ...attempt.argv], { env: service.env });
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toContain(`slice ${attempt.planned}`);
      expect(result.stderr).toContain(`overlaps slice ${attempt.committed}`);
      expect(result.stderr).toMatch(/boundaries of the committed slices/);
      expect(await listTree(out)).toEqual(before);
    }

    const longer = pipeline(out) as { source: { window: { slice: string } } };
    longer.source.window.slice = "3h";
    await writePipeline(dir, longer);
    const relengthened = await runCli(["run", file], { env: service.env });
    expect(relengthened.code, relengthened.stderr).toBe(2);
    expect(relengthened.stderr).toMatch(/overlaps slice 20261120T0[12]0000Z/);
    expect(await listTree(out)).toEqual(before);
    expect(compareExactly(await readNdjsonRecords(out), expected)).toBeUndefined();
  });
});
