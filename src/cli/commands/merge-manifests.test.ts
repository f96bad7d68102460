import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Manifest } from "../../pipeline/output-state/manifest.js";
import { main } from "../main.js";
import { defaultComponents } from "../../components/environment.js";

function manifest(index: number, window: { start: string; end: string }, complete = true): Manifest {
  const slice = `2026112${index}T000000Z`;
  return {
    version: 1,
    pipeline: "merge-test",
    fingerprint: "f".repeat(64),
    run_id: `run-${index}`,
    generated_at: "2026-11-22T00:00:00.000Z",
    destination: "out",
    format: "ndjson",
    window,
    complete,
    totals: { slices: 1, files: 1, rows: 2, bytes: 10, expected: 2 },
    slices: [
      {
        id: slice,
        start: window.start,
        end: window.end,
        expected: 2,
        read: 2,
        duplicates: 0,
        written: 2,
        files: 1,
      },
    ],
    files: [{ path: `${slice}-0000.ndjson`, slice, rows: 2, bytes: 10, sha256: "0".repeat(64) }],
  };
}

describe("merge-manifests", () => {
  let dir: string;
  let pipelineFile: string;
  const windowA = { start: "2026-11-20T00:00:00.000Z", end: "2026-11-23T00:00:00.000Z" };
  const windowB = { start: "2026-11-01T00:00:00.000Z", end: "2026-11-04T00:00:00.000Z" };

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "mdq-merge-"));
    pipelineFile = join(dir, "pipeline.yaml");
    await writeFile(
      pipelineFile,
      [
        "name: merge-test",
        "service: { embedded: true }",
        "source: { kind: jobs, application: atr, app_type: [ec2], domain: ['*'], window: { start: now-1d/d, end: now/d, slice: 1h } }",
        `sinks: [{ format: ndjson, to: ${JSON.stringify(join(dir, "out"))} }]`,
      ].join("\n"),
    );
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function merge(): Promise<{ code: number; stderr: string }> {
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    let errors = "";
    stderr.on("data", (chunk: Buffer) => (errors += chunk.toString()));
    stdout.resume();
    const code = await main(["merge-manifests", pipelineFile, "--shard-count", "3"], {
      stdout,
      stderr,
      env: {},
      signal: new AbortController().signal,
      isTTY: false,
      components: defaultComponents(),
    });
    return { code, stderr: errors };
  }

  async function writeShard(index: number, window: { start: string; end: string }): Promise<void> {
    await mkdir(join(dir, "out"), { recursive: true });
    await writeFile(
      join(dir, "out", `_manifest.shard-${index}-of-3.json`),
      JSON.stringify(manifest(index, window)),
    );
  }

  it("combines complete shards of one window and writes _SUCCESS", async () => {
    for (const index of [0, 1, 2]) await writeShard(index, windowA);
    const { code } = await merge();
    expect(code).toBe(0);
    const merged = JSON.parse(await readFile(join(dir, "out", "_manifest.json"), "utf8")) as Manifest;
    expect(merged.totals.files).toBe(3);
    expect(merged.complete).toBe(true);
    await expect(stat(join(dir, "out", "_SUCCESS"))).resolves.toBeDefined();
  });

  // Regression: a shard manifest whose counts were text was merged (the totals concatenated as strings)
  // and _SUCCESS written.
  it("stops on a shard manifest that is not one, naming the file and the field", async () => {
    for (const index of [0, 2]) await writeShard(index, windowA);
    const broken = manifest(1, windowA);
    await writeFile(
      join(dir, "out", "_manifest.shard-1-of-3.json"),
      JSON.stringify({ ...broken, files: [{ ...broken.files[0], rows: "2\u001b[2J" }] }),
    );
    const { code, stderr } = await merge();
    expect(code).toBe(1);
    expect(stderr).toContain("_manifest.shard-1-of-3.json is not a manifest this version writes");
    expect(stderr).toContain("files[0].rows");
    expect(stderr).toContain('(found "2\\u001b[2J")');
    expect(stderr).not.toContain("\u001b");
    await expect(stat(join(dir, "out", "_manifest.json"))).rejects.toThrow();
    await expect(stat(join(dir, "out", "_SUCCESS"))).rejects.toThrow();
  });

  // Regression: a shard manifest left by an earlier backfill over another window made the merge complete.
  it("refuses a shard manifest from another window", async () => {
    await writeShard(0, windowA);
    await writeShard(1, windowA);
    await writeShard(2, windowB);
    const { code, stderr } = await merge();
    expect(code).toBe(75);
    expect(stderr).toContain("2026-11-01T00:00:00.000Z");
    await expect(stat(join(dir, "out", "_SUCCESS"))).rejects.toThrow();
  });
});
