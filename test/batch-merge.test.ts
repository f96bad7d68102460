// No small files: a batch backfill commits its partitions one by one (resume stays per partition),
// then folds them into one file per slice and partition path. Measured on the 60,000-log example.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { describe, expect } from "vitest";
import type { RunningEmulator } from "../src/emulator/server.js";
import { byId, checkCompleteExport } from "./support/export-checks.js";
import { readNdjson, readParquet } from "./support/read-output.js";
import { emulatorEnv, runCli } from "./support/cli-harness.js";
import { useEmulator } from "./support/use-emulator.js";

const PIPELINE = join(import.meta.dirname, "..", "pipelines", "logs-backfill-batch.yaml");
const WEEK = { start: "2026-03-01T00:00:00Z", end: "2026-03-08T00:00:00Z" };

// The default density: about 60,000 logs in the week over ec2 and kubernetes.
const it = useEmulator({ density: 60 });

function expectedLogs(emulator: RunningEmulator, appType: string): number {
  return emulator.expectedCount("/v2/logs/batch", {
    application: "atr",
    app_type: appType,
    domain: ["*"],
    start_time: WEEK.start,
    end_time: WEEK.end,
  });
}

describe("batch backfill files", () => {
  it("writes one file per day for the week's 60,000 logs, with every log once", async ({
    service,
    workspace,
  }) => {
    const { emulator } = service;
    const out = join(workspace.dir, "backfill");
    const result = await runCli(["run", PIPELINE, "--start", WEEK.start, "--end", WEEK.end], {
      env: { ...emulatorEnv(emulator), MDQ_OUT_DIR: out },
    });
    expect(result.code).toBe(0);
    const total = expectedLogs(emulator, "ec2") + expectedLogs(emulator, "kubernetes");
    expect(total).toBeGreaterThan(55_000);
    const dir = join(out, "logs-backfill");
    const { files } = await checkCompleteExport(dir, total);
    // Before merging, each of the 7 slices left one file per partition: 24 hours × 2 app types.
    const merges = result.stderr
      .split("\n")
      .filter((line) => line.includes("Merged the partition files"))
      .map((line) => JSON.parse(line) as { parts: number; files: number });
    expect(merges.map((merge) => merge.parts)).toEqual(Array.from({ length: 7 }, () => 48));
    expect(files).toEqual(
      Array.from({ length: 7 }, (_, day) => {
        const date = `2026-03-0${day + 1}`;
        return `dt=${date}/logs-${date.replaceAll("-", "")}T000000Z-0000.ndjson.gz`;
      }),
    );
    const rows = await readNdjson(dir, files);
    expect(byId(rows).size).toBe(total);
    const manifest = JSON.parse(await readFile(join(dir, "_manifest.json"), "utf8")) as { files: unknown[] };
    expect(manifest.files).toHaveLength(7);
    // The partitions' gzip members follow each other: a warehouse reader takes the series whole.
    expect(result.stderr).not.toContain("merged row by row");
    expect(await duckDbCount(`read_json_auto([${quoted(dir, files)}], format = 'newline_delimited')`)).toBe(
      total,
    );
  });

  it("joins Parquet partitions by their row groups: one file per day, every log once, verify passes", async ({
    service,
    workspace,
  }) => {
    const { emulator } = service;
    const text = (await readFile(PIPELINE, "utf8"))
      .replace("  - format: ndjson\n    gzip: true\n", "  - format: parquet\n")
      .replace("out}/logs-backfill", "out}/logs-backfill-parquet");
    expect(text).toContain("format: parquet");
    const pipeline = await workspace.write("backfill-parquet.yaml", text);
    const out = join(workspace.dir, "backfill-parquet");
    const env = { ...emulatorEnv(emulator), MDQ_OUT_DIR: out };
    const result = await runCli(["run", pipeline, "--start", WEEK.start, "--end", WEEK.end], { env });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).not.toContain("merged row by row");
    const total = expectedLogs(emulator, "ec2") + expectedLogs(emulator, "kubernetes");
    const dir = join(out, "logs-backfill-parquet");
    const { files } = await checkCompleteExport(dir, total);
    expect(files).toHaveLength(7);
    const table = await readParquet(dir, files);
    expect(byId(table.rows).size).toBe(total);
    // Each day's file holds the row groups of its 48 partitions, as they were written.
    expect(
      await duckDbCount(`parquet_metadata([${quoted(dir, files)}]) WHERE column_id = 0`),
    ).toBeGreaterThanOrEqual(7 * 48);
    const verified = await runCli(["verify", pipeline], { env });
    expect(verified.code, verified.stdout + verified.stderr).toBe(0);
  });
});

const quoted = (dir: string, files: readonly string[]): string =>
  files.map((file) => `'${join(dir, file).replaceAll("'", "''")}'`).join(", ");

async function duckDbCount(from: string): Promise<number> {
  const instance = await DuckDBInstance.create(":memory:");
  const connection = await instance.connect();
  try {
    const reader = await connection.runAndReadAll(`SELECT count(*)::INTEGER AS n FROM ${from}`);
    return Number(reader.getRowObjectsJS()[0]?.n);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}
