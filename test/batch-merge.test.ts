// No small files: a batch backfill commits its partitions one by one (resume stays per partition),
// then folds them into one file per slice and partition path. Measured on the 60,000-log example.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../src/emulator/server.js";
import { byId, checkCompleteExport, startTestEmulator } from "./support/export-checks.js";
import { readNdjson } from "./support/read-output.js";
import { createWorkspace, emulatorEnv, runCli } from "./support/cli-harness.js";
import type { Workspace } from "./support/cli-harness.js";

const PIPELINE = join(import.meta.dirname, "..", "pipelines", "logs-backfill-batch.yaml");
const WEEK = { start: "2026-03-01T00:00:00Z", end: "2026-03-08T00:00:00Z" };

let emulator: RunningEmulator;
let workspace: Workspace;
beforeAll(async () => {
  // The default density: about 60,000 logs in the week over ec2 and kubernetes.
  emulator = await startTestEmulator({ density: 60 });
  workspace = await createWorkspace("mdq-merge-");
});
afterAll(async () => {
  await emulator.close();
  await workspace.remove();
});

function expectedLogs(appType: string): number {
  return emulator.expectedCount("/v2/logs/batch", {
    application: "atr",
    app_type: appType,
    domain: ["*"],
    start_time: WEEK.start,
    end_time: WEEK.end,
  });
}

describe("batch backfill files", () => {
  it("writes one file per day for the week's 60,000 logs, with every log once", async () => {
    const out = join(workspace.dir, "backfill");
    const result = await runCli(["run", PIPELINE, "--start", WEEK.start, "--end", WEEK.end], {
      env: { ...emulatorEnv(emulator), MDQ_OUT_DIR: out },
    });
    expect(result.code).toBe(0);
    const total = expectedLogs("ec2") + expectedLogs("kubernetes");
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
  });
});
