// A batch export commits partition by partition: a run stopped midway leaves the partitions it wrote
// committed, and the rerun downloads only the others, with the same batch token, and ends exact.
import { join } from "node:path";
import { describe, expect } from "vitest";
import {
  SERVICE_FROM_ENV,
  compareExactly,
  expectedRows,
  listTree,
  readJson,
  readNdjsonRecords,
  runCli,
  temporaryFiles,
  waitFor,
  writePipeline,
} from "./support/cli-harness.js";
import { logsBatchSource } from "./support/jobs-pipeline.js";
import { readRunState } from "./support/run-state.js";
import { useEmulator } from "./support/use-emulator.js";

const START = "2026-11-20T00:00:00Z";
const END = "2026-11-20T12:00:00Z";

// One 12-hour slice whose batch export has twelve one-hour partitions.
const it = useEmulator(
  { seed: 21, density: 1200, batchPartitionSeconds: 3600, batchReadyAfterPolls: 0 },
  { preset: false },
);

interface BatchState {
  tokens: Record<string, string>;
  parts: Record<string, { read: number; files: { path: string }[] }>;
}

async function batchState(out: string): Promise<BatchState | undefined> {
  try {
    const batches = (await readRunState(out))?.batches as unknown as Record<string, BatchState>;
    return Object.values(batches)[0];
  } catch {
    return undefined;
  }
}

describe("a batch export resumes partition by partition", () => {
  it("downloads after a stop only the partitions not yet committed", async ({ service, workspace }) => {
    const { dir } = workspace;
    const out = join(dir, "out");
    const file = await writePipeline(dir, {
      name: "batch-parts",
      service: SERVICE_FROM_ENV,
      source: logsBatchSource(START, END, "12h"),
      sinks: [{ format: "ndjson", to: out }],
    });

    const controller = new AbortController();
    const first = runCli(["run", file], { env: service.env, signal: controller.signal });
    await waitFor(
      async () => Object.keys((await batchState(out))?.parts ?? {}).length > 0,
      "a committed partition",
    );
    controller.abort();
    expect((await first).code).toBe(75);
    const stopped = await batchState(out);
    const committedParts = Object.keys(stopped?.parts ?? {}).length;
    expect(committedParts).toBeGreaterThan(0);
    expect(committedParts).toBeLessThan(12);
    const downloadsBefore = service.emulator.requestCount("/downloads");
    // The committed partitions' files are visible and listed in the manifest of the stopped run.
    const manifest = (await readJson(join(out, "_manifest.json"))) as {
      files: { path: string }[];
      complete: boolean;
    };
    expect(manifest.complete).toBe(false);
    const partFiles = Object.values(stopped?.parts ?? {}).flatMap((part) => part.files.map((f) => f.path));
    expect(manifest.files.map((f) => f.path).sort()).toEqual(partFiles.sort());

    const second = await runCli(["run", file], { env: service.env });
    expect(second.code, second.stderr).toBe(0);
    expect(service.emulator.requestCount("/v2/logs/batch")).toBe(1);
    expect(service.emulator.requestCount("/downloads") - downloadsBefore).toBe(12 - committedParts);
    const expected = await expectedRows(service.emulator, "/v2/logs/scroll", [
      { application: "atr", app_type: "ec2", domain: ["*"], start_time: START, end_time: END },
    ]);
    expect(expected.size).toBeGreaterThan(1000);
    expect(compareExactly(await readNdjsonRecords(out), expected)).toBeUndefined();
    expect(temporaryFiles(await listTree(out))).toEqual([]);
    expect(await batchState(out)).toBeUndefined();
  });
});
