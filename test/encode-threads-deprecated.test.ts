// `limits.encode_threads` outlived the Parquet worker threads it sized (measured slower on two cores,
// docs/performance.md): a pipeline that names it still loads and runs, encodes on the main thread
// exactly as one without it, and is told once, at warn level, by `run` and by `validate`.
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect } from "vitest";
import { SERVICE_FROM_ENV, dataFiles, listTree, runCli, writePipeline } from "./support/cli-harness.js";
import type { Row, Workspace } from "./support/cli-harness.js";
import { jobsPitSource } from "./support/jobs-pipeline.js";
import { readParquet } from "./support/read-output.js";
import { expectedRowsFixture, useEmulator } from "./support/use-emulator.js";

const START = "2026-11-20T00:00:00Z";
const END = "2026-11-20T02:00:00Z";
const NOTICE = /limits\.encode_threads is deprecated and has no effect/;

const it = useEmulator({ seed: 5, density: 300 }).extend<{ expected: Map<string, Row> }>({
  expected: expectedRowsFixture("/v3/jobs/query", [
    { application: "atr", app_type: ["ec2", "kubernetes"], domain: ["*"], start_time: START, end_time: END },
  ]),
});

async function setUp(
  workspace: Workspace,
  name: string,
  limits: object,
): Promise<{ file: string; out: string }> {
  const dir = await workspace.folder(name);
  const out = join(dir, "out");
  const file = await writePipeline(dir, {
    name: "encode-threads",
    service: SERVICE_FROM_ENV,
    source: jobsPitSource(START, END, 400),
    sinks: [{ format: "parquet", row_group_rows: 1000, to: out, path: "part-{slice}-{seq}.{ext}" }],
    limits,
  });
  return { file, out };
}

/** Each data file's SHA-256, by path. */
async function digests(out: string): Promise<Record<string, string>> {
  const found: Record<string, string> = {};
  for (const path of dataFiles(await listTree(out)))
    found[path] = createHash("sha256")
      .update(await readFile(join(out, path)))
      .digest("hex");
  return found;
}

describe("limits.encode_threads, deprecated", () => {
  it("with 2, runs on the main thread: the same Parquet bytes as without it, and one warning", async ({
    service,
    workspace,
    expected,
  }) => {
    const threads = await setUp(workspace, "two", { concurrency: 2, encode_threads: 2 });
    const plain = await setUp(workspace, "none", { concurrency: 2 });
    const withKey = await runCli(["run", threads.file, "--log-level", "debug"], { env: service.env });
    expect(withKey.code, withKey.stderr).toBe(0);
    const without = await runCli(["run", plain.file, "--log-level", "debug"], { env: service.env });
    expect(without.code, without.stderr).toBe(0);

    const notices = withKey.logs.filter((line) => NOTICE.test(String(line.msg)));
    expect(notices).toHaveLength(1);
    // The warn level, and the place in the file that names the key.
    expect(notices[0]).toMatchObject({
      level: "warn",
      path: "limits.encode_threads",
      line: expect.any(Number),
    });
    expect(without.logs.filter((line) => NOTICE.test(String(line.msg)))).toEqual([]);
    expect(withKey.stderr).not.toMatch(/worker threads/);

    const files = await digests(threads.out);
    expect(Object.keys(files).length).toBeGreaterThan(0);
    expect(files).toEqual(await digests(plain.out));
    const table = await readParquet(threads.out, Object.keys(files));
    expect(new Set(table.rows.map((row) => row._id))).toEqual(new Set(expected.keys()));
    expect(table.rows).toHaveLength(expected.size);
  });

  it("is noted by validate, with the key's line and column, and still valid", async ({ workspace }) => {
    const { file } = await setUp(workspace, "validate", { encode_threads: "auto" });
    const result = await runCli(["validate", file, "--no-env"]);
    expect(result.code, result.stderr).toBe(0);
    const warnings = result.stderr.split("\n").filter((line) => NOTICE.test(line));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^warning: .*pipeline\.yaml:\d+:\d+: limits\.encode_threads is deprecated/);
  });
});
