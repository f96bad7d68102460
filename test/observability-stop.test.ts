// A stop is a stop: a run ended by SIGTERM (a pod eviction) counts the slices it cut short as
// `stopped`, in the metrics it pushes to a real Pushgateway, in its report and in its summary, never
// as `failed`, so the alert on failing slices stays quiet. A real process, signalled mid-run.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect } from "vitest";
import type { RunReport } from "../src/observability/run-report.js";
import { emulatorEnv, spawnCli, waitFor } from "./support/cli-harness.js";
import { jobsPipelineYaml } from "./support/jobs-pipeline.js";
import { parseExposition, sampleValue, startPushgateway } from "./support/prometheus.js";
import type { RunningTool } from "./support/prometheus.js";
import { useEmulator } from "./support/use-emulator.js";

// Every request waits 300 ms: two slices are in flight when the signal comes.
const it = useEmulator({ seed: 19, density: 30, faults: { latencyMs: 300 } }, { preset: false });

let pushgateway: RunningTool;
beforeAll(async () => {
  pushgateway = await startPushgateway();
});
afterAll(async () => {
  await pushgateway?.close();
});

describe("SIGTERM during a run", () => {
  it("counts the slices it cut short as stopped in the pushed metrics, the report and the summary", async ({
    service,
    workspace,
  }) => {
    const { emulator } = service;
    const out = join(workspace.dir, "evicted");
    const file = await workspace.write(
      "evicted.yaml",
      jobsPipelineYaml({ name: "evicted", out, endHour: 12, concurrency: 2 }),
    );
    const report = join(workspace.dir, "evicted.report.json");
    const cli = spawnCli(["run", file, "--report", report, "--pushgateway", pushgateway.url], {
      ...emulatorEnv(emulator),
      MDQ_LOG_LEVEL: "warn",
    });
    await waitFor(() => emulator.requestCount() >= 6, "the run to be under way");
    cli.child.kill("SIGTERM");
    expect(await cli.exited, cli.stderr()).toBe(75);

    const written = JSON.parse(await readFile(report, "utf8")) as RunReport;
    expect(written.outcome).toBe("stopped");
    expect(written.slices.failed).toBe(0);
    expect(written.slices.stopped).toBeGreaterThanOrEqual(1);
    expect(written.slice_results.filter((slice) => slice.outcome === "stopped")).toHaveLength(
      written.slices.stopped,
    );
    expect(written.slices.committed + written.slices.stopped + written.slices.pending).toBe(12);

    const samples = parseExposition(await (await fetch(`${pushgateway.url}/metrics`)).text()).filter(
      (sample) => sample.labels.pipeline === "evicted",
    );
    expect(sampleValue(samples, "mdq_export_slices_total", { outcome: "failed" })).toBe(0);
    expect(sampleValue(samples, "mdq_export_slices_total", { outcome: "stopped" })).toBe(
      written.slices.stopped,
    );
    expect(sampleValue(samples, "mdq_export_run_exit_code")).toBe(75);

    expect(cli.stdout()).toContain("evicted: stopped, resumable");
    expect(cli.stdout()).toContain(`${written.slices.stopped} cut short`);
    expect(cli.stdout()).not.toContain("failed");
  }, 30_000);
});
