// `mdq-export verify` re-reads an export against its manifest: a clean export passes, and a deleted,
// truncated, altered or extra file is named (exit 1), for NDJSON (gzip) and Parquet alike.
import { appendFile, readFile, truncate, unlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect } from "vitest";
import { SERVICE_FROM_ENV, dataFiles, listTree, runCli, writePipeline } from "./support/cli-harness.js";
import { jobsSource } from "./support/jobs-pipeline.js";
import type { CliResult } from "./support/cli-harness.js";
import { useEmulator } from "./support/use-emulator.js";

/** A complete export, made afresh for each test, and what the tests do with it. */
interface FreshExport {
  dir: string;
  file: string;
  verify(): Promise<CliResult>;
  firstDataFile(sink: string): Promise<string>;
}

const it = useEmulator({ seed: 4, density: 10 }, { preset: false }).extend<{ exported: FreshExport }>({
  exported: [
    async ({ service, workspace }, use) => {
      const dir = await workspace.folder("verify");
      const file = await writePipeline(dir, {
        name: "verify",
        service: SERVICE_FROM_ENV,
        source: jobsSource("2026-11-20T00:00:00Z", "2026-11-20T03:00:00Z"),
        sinks: [
          { format: "parquet", to: join(dir, "parquet") },
          { format: "ndjson", gzip: true, to: join(dir, "ndjson") },
        ],
      });
      const run = await runCli(["run", file], { env: service.env });
      expect(run.code, run.stderr).toBe(0);
      await use({
        dir,
        file,
        verify: () => runCli(["verify", file], { env: service.env }),
        async firstDataFile(sink) {
          const files = dataFiles(await listTree(join(dir, sink)));
          expect(files.length).toBeGreaterThanOrEqual(3);
          return join(dir, sink, files[0] as string);
        },
      });
    },
    { auto: true },
  ],
});

describe("verify", () => {
  it("passes a complete export", async ({ exported }) => {
    const { verify } = exported;
    const result = await verify();
    expect(result.code, result.stdout + result.stderr).toBe(0);
  });

  it.for(["parquet", "ndjson"])("names a deleted %s file", async (sink, { exported }) => {
    const { dir, verify, firstDataFile } = exported;
    const path = await firstDataFile(sink);
    await unlink(path);
    const result = await verify();
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/missing/);
    expect(result.stdout).toContain(path.slice(join(dir, sink).length + 1));
  });

  it.for(["parquet", "ndjson"])("names a truncated %s file", async (sink, { exported }) => {
    const { dir, verify, firstDataFile } = exported;
    const path = await firstDataFile(sink);
    const { length } = await readFile(path);
    await truncate(path, Math.floor(length / 2));
    const result = await verify();
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/truncated/);
    expect(result.stdout).toContain(path.slice(join(dir, sink).length + 1));
  });

  it("names a file whose bytes were altered (same size)", async ({ exported }) => {
    const { verify, firstDataFile } = exported;
    const path = await firstDataFile("ndjson");
    const bytes = await readFile(path);
    bytes[bytes.length - 12] = (bytes[bytes.length - 12] ?? 0) ^ 0xff;
    await writeFile(path, bytes);
    const result = await verify();
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/checksum|unreadable|rows/);
  });

  it.for(["parquet", "ndjson"])(
    "names an extra %s file the manifest does not know",
    async (sink, { exported }) => {
      const { dir, verify } = exported;
      const extra = join(dir, sink, "stray-20261120T000000Z-0000.bin");
      await writeFile(extra, "not part of the export\n");
      const result = await verify();
      expect(result.code).toBe(1);
      expect(result.stdout).toMatch(/extra/);
      expect(result.stdout).toContain("stray-20261120T000000Z-0000.bin");
    },
  );

  // Regression: the manifest was trusted as parsed; a file's row count given as text was checked as if
  // it were a count.
  it("stops on a manifest that is not one, naming the file, the field and the value", async ({
    exported,
  }) => {
    const { dir, verify } = exported;
    const path = join(dir, "ndjson", "_manifest.json");
    const manifest = JSON.parse(await readFile(path, "utf8")) as { files: { rows: unknown }[] };
    const second = manifest.files[1];
    if (second === undefined) throw new Error("the export has fewer than two files");
    second.rows = "many\r";
    await writeFile(path, JSON.stringify(manifest));
    const result = await verify();
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `${join(dir, "ndjson")}/_manifest.json is not a manifest this version writes`,
    );
    expect(result.stderr).toContain(
      'files[1].rows: Invalid input: expected number, received string (found "many\\r")',
    );
    expect(result.stderr).toContain("rerun the pipeline");
  });

  it("names a file that grew", async ({ exported }) => {
    const { verify, firstDataFile } = exported;
    const path = await firstDataFile("parquet");
    await appendFile(path, "tail");
    const result = await verify();
    expect(result.code).toBe(1);
  });
});

describe("verify --shard on a destination the shards share", () => {
  it("checks its own shard: the other shards' files are theirs, a file no manifest lists is extra", async ({
    service,
    exported,
  }) => {
    const { dir } = exported;
    const shared = join(dir, "shared");
    const sharded = await writePipeline(
      dir,
      {
        name: "sharded",
        service: SERVICE_FROM_ENV,
        source: jobsSource("2026-11-20T00:00:00Z", "2026-11-20T04:00:00Z"),
        sinks: [{ format: "ndjson", to: shared }],
      },
      "sharded.yaml",
    );
    for (const shard of ["0/2", "1/2"]) {
      const run = await runCli(["run", sharded, "--shard", shard], { env: service.env });
      expect(run.code, run.stderr).toBe(0);
    }
    for (const shard of ["0/2", "1/2"]) {
      const result = await runCli(["verify", sharded, "--shard", shard], { env: service.env });
      expect(result.stdout, shard).toMatch(/: ok — 2 files/);
      expect(result.code, shard).toBe(0);
    }

    await writeFile(join(shared, "stray-20261120T000000Z-0000.ndjson"), "{}\n");
    const stray = await runCli(["verify", sharded, "--shard", "0/2"], { env: service.env });
    expect(stray.code).toBe(1);
    expect(stray.stdout).toContain(
      "extra: stray-20261120T000000Z-0000.ndjson is in " +
        `${shared} but not in _manifest.shard-0-of-2.json nor in another shard's manifest`,
    );
    expect(stray.stdout.match(/extra/g)).toHaveLength(1);
    await unlink(join(shared, "stray-20261120T000000Z-0000.ndjson"));

    // A file of shard 1 deleted: shard 1 names it missing, shard 0 is not concerned.
    const shard1 = JSON.parse(await readFile(join(shared, "_manifest.shard-1-of-2.json"), "utf8")) as {
      files: { path: string }[];
    };
    const lost = shard1.files[0]?.path ?? "";
    await unlink(join(shared, lost));
    const missing = await runCli(["verify", sharded, "--shard", "1/2"], { env: service.env });
    expect(missing.code).toBe(1);
    expect(missing.stdout).toContain(`missing: ${lost} is in the manifest`);
    const other = await runCli(["verify", sharded, "--shard", "0/2"], { env: service.env });
    expect(other.code, other.stdout).toBe(0);
  });
});
