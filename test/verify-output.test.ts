// `mdq-export verify` re-reads an export against its manifest: a clean export passes, and a deleted,
// truncated, altered or extra file is named (exit 1), for NDJSON (gzip) and Parquet alike.
import { appendFile, readFile, truncate, unlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  SERVICE_FROM_ENV,
  dataFiles,
  listTree,
  makeTempDir,
  removeDir,
  runCli,
  startTestService,
  writePipeline,
} from "./support/cli-harness.js";
import type { TestService } from "./support/cli-harness.js";

let service: TestService;
let dir: string;
let file: string;

beforeAll(async () => {
  service = await startTestService({ seed: 4, density: 10 });
});
afterAll(async () => {
  await service.close();
  await removeDir(dir);
});

beforeEach(async () => {
  if (dir !== undefined) await removeDir(dir);
  dir = await makeTempDir("verify");
  file = await writePipeline(dir, {
    name: "verify",
    service: SERVICE_FROM_ENV,
    source: {
      kind: "jobs",
      application: "atr",
      app_type: ["ec2"],
      domain: ["*"],
      strategy: "pit",
      window: { start: "2026-11-20T00:00:00Z", end: "2026-11-20T03:00:00Z", slice: "1h" },
    },
    sinks: [
      { format: "parquet", to: join(dir, "parquet") },
      { format: "ndjson", gzip: true, to: join(dir, "ndjson") },
    ],
  });
  const run = await runCli(["run", file], { env: service.env });
  expect(run.code, run.stderr).toBe(0);
});

const verify = () => runCli(["verify", file], { env: service.env });

async function firstDataFile(sink: string): Promise<string> {
  const files = dataFiles(await listTree(join(dir, sink)));
  expect(files.length).toBeGreaterThanOrEqual(3);
  return join(dir, sink, files[0] as string);
}

describe("verify", () => {
  it("passes a complete export", async () => {
    const result = await verify();
    expect(result.code, result.stdout + result.stderr).toBe(0);
  });

  it.each(["parquet", "ndjson"])("names a deleted %s file", async (sink) => {
    const path = await firstDataFile(sink);
    await unlink(path);
    const result = await verify();
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/missing/);
    expect(result.stdout).toContain(path.slice(join(dir, sink).length + 1));
  });

  it.each(["parquet", "ndjson"])("names a truncated %s file", async (sink) => {
    const path = await firstDataFile(sink);
    const { length } = await readFile(path);
    await truncate(path, Math.floor(length / 2));
    const result = await verify();
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/truncated/);
    expect(result.stdout).toContain(path.slice(join(dir, sink).length + 1));
  });

  it("names a file whose bytes were altered (same size)", async () => {
    const path = await firstDataFile("ndjson");
    const bytes = await readFile(path);
    bytes[bytes.length - 12] = (bytes[bytes.length - 12] ?? 0) ^ 0xff;
    await writeFile(path, bytes);
    const result = await verify();
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/checksum|unreadable|rows/);
  });

  it.each(["parquet", "ndjson"])("names an extra %s file the manifest does not know", async (sink) => {
    const extra = join(dir, sink, "stray-20261120T000000Z-0000.bin");
    await writeFile(extra, "not part of the export\n");
    const result = await verify();
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/extra/);
    expect(result.stdout).toContain("stray-20261120T000000Z-0000.bin");
  });

  it("names a file that grew", async () => {
    const path = await firstDataFile("parquet");
    await appendFile(path, "tail");
    const result = await verify();
    expect(result.code).toBe(1);
  });
});
