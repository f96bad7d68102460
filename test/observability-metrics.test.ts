// Metrics against a real Pushgateway and a real Prometheus: an export pushes values that equal its
// manifest and the requests the emulator counted; Prometheus scrapes --metrics-port while a slowed
// run lasts and its query API returns the series; a Pushgateway that is down only costs a warning.
import { readFile } from "node:fs/promises";
import { connect } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect } from "vitest";
import type { Manifest } from "../src/pipeline/output-state/manifest.js";
import { waitFor } from "./support/cli-harness.js";
import {
  freePort,
  parseExposition,
  sampleValue,
  startPrometheus,
  startPushgateway,
} from "./support/prometheus.js";
import type { RunningTool } from "./support/prometheus.js";
import { jobsPipelineYaml } from "./support/jobs-pipeline.js";
import { emulatorEnv, runCli } from "./support/cli-harness.js";
import type { TestService } from "./support/cli-harness.js";
import { serviceFixture, useEmulator } from "./support/use-emulator.js";

let pushgateway: RunningTool;

beforeAll(async () => {
  pushgateway = await startPushgateway();
});
afterAll(async () => {
  await pushgateway?.close();
});

async function readManifest(dir: string): Promise<Manifest> {
  return JSON.parse(await readFile(join(dir, "_manifest.json"), "utf8")) as Manifest;
}

const it = useEmulator({ seed: 5, density: 40 }, { preset: false });

describe("--pushgateway", () => {
  it("pushes, grouped by job and pipeline, the records, slices and requests the manifest and the emulator count", async ({
    service,
    workspace,
  }) => {
    const { emulator } = service;
    const out = join(workspace.dir, "pushed");
    const file = await workspace.write("pushed.yaml", jobsPipelineYaml({ name: "metrics-pushed", out }));
    const result = await runCli(["run", file, "--pushgateway", pushgateway.url], {
      env: emulatorEnv(emulator),
    });
    expect(result.code, result.stderr).toBe(0);
    const manifest = await readManifest(out);
    expect(manifest.totals.rows).toBeGreaterThan(0);

    const text = await (await fetch(`${pushgateway.url}/metrics`)).text();
    const group = { job: "mdq-export", pipeline: "metrics-pushed" };
    const samples = parseExposition(text).filter(
      (sample) => sample.labels.job === group.job && sample.labels.pipeline === group.pipeline,
    );
    expect(sampleValue(samples, "mdq_export_records_written_total", { sink: "0" })).toBe(
      manifest.totals.rows,
    );
    expect(sampleValue(samples, "mdq_export_bytes_written_total", { sink: "0" })).toBe(manifest.totals.bytes);
    expect(sampleValue(samples, "mdq_export_records_read_total", { kind: "jobs" })).toBe(
      manifest.slices.reduce((sum, slice) => sum + slice.read, 0),
    );
    expect(sampleValue(samples, "mdq_export_slices_total", { outcome: "committed" })).toBe(
      manifest.slices.length,
    );
    expect(sampleValue(samples, "mdq_export_slices_total", { outcome: "failed" })).toBe(0);
    expect(sampleValue(samples, "mdq_export_slice_duration_seconds_count")).toBe(manifest.slices.length);
    expect(sampleValue(samples, "mdq_export_run_exit_code")).toBe(0);
    const started = sampleValue(samples, "mdq_export_run_start_timestamp_seconds");
    expect(sampleValue(samples, "mdq_export_last_success_timestamp_seconds")).toBeGreaterThanOrEqual(started);
    expect(sampleValue(samples, "mdq_export_quota_remaining")).toBeLessThan(emulator.options.quota);
    // The pipeline's limits.concurrency is 2: the limit starts there, and only the service lowers it.
    expect([1, 2]).toContain(sampleValue(samples, "mdq_export_concurrency"));

    // Every request the emulator received, by operation, and nothing it did not.
    const pushed: Record<string, number> = {};
    for (const sample of samples.filter((s) => s.name === "mdq_export_requests_total")) {
      expect(sample.labels.status).toBe("200");
      const operation = sample.labels.operation as string;
      pushed[operation] = (pushed[operation] ?? 0) + sample.value;
    }
    expect(pushed).toEqual(emulator.requestCounts());
  });

  it("keeps the last success when a later run of the pipeline fails, and says it failed", async ({
    service,
    workspace,
  }) => {
    const { emulator } = service;
    const out = join(workspace.dir, "pushed");
    const before = parseExposition(await (await fetch(`${pushgateway.url}/metrics`)).text());
    const success = sampleValue(before, "mdq_export_last_success_timestamp_seconds", {
      pipeline: "metrics-pushed",
    });
    // The same pipeline against a service that refuses the client: the run fails (exit 1).
    const file = await workspace.write("pushed.yaml", jobsPipelineYaml({ name: "metrics-pushed", out }));
    const env = { ...emulatorEnv(emulator), MDQ_CLIENT_SECRET: "not-the-secret" };
    const result = await runCli(["run", file, "--pushgateway", pushgateway.url], { env });
    expect(result.code).toBe(1);
    const after = parseExposition(await (await fetch(`${pushgateway.url}/metrics`)).text()).filter(
      (sample) => sample.labels.pipeline === "metrics-pushed",
    );
    expect(sampleValue(after, "mdq_export_run_exit_code")).toBe(1);
    expect(sampleValue(after, "mdq_export_last_success_timestamp_seconds")).toBe(success);
    expect(
      sampleValue(after, "mdq_export_requests_total", { operation: "/oauth2/token", status: "401" }),
    ).toBe(1);
  });

  it("counts the slices a run left open, and 0 once a later run has settled them", async ({
    service,
    workspace,
  }) => {
    const { emulator } = service;
    const out = join(workspace.dir, "open");
    const file = await workspace.write("open.yaml", jobsPipelineYaml({ name: "metrics-open", out }));
    const pushed = async (now: string): Promise<ReturnType<typeof parseExposition>> => {
      const result = await runCli(["run", file, "--now", now, "--pushgateway", pushgateway.url], {
        env: emulatorEnv(emulator),
      });
      expect(result.code, result.stderr).toBe(0);
      return parseExposition(await (await fetch(`${pushgateway.url}/metrics`)).text()).filter(
        (sample) => sample.labels.pipeline === "metrics-open",
      );
    };
    // Ten minutes after the window's end, within the default settle (15m): its last slice is open.
    const early = await pushed("2026-03-10T06:10:00Z");
    const manifest = await readManifest(out);
    expect(manifest.complete).toBe(false);
    const open = manifest.slices.filter((slice) => slice.open === true).length;
    expect(open).toBe(1);
    expect(sampleValue(early, "mdq_export_open_slices")).toBe(open);
    expect(sampleValue(early, "mdq_export_run_exit_code")).toBe(0);
    expect(sampleValue(early, "mdq_export_last_success_timestamp_seconds")).toBeGreaterThan(0);

    const settled = await pushed("2026-03-10T07:00:00Z");
    expect((await readManifest(out)).complete).toBe(true);
    expect(sampleValue(settled, "mdq_export_open_slices")).toBe(0);
  });

  it("a Pushgateway that cannot be reached is a warning, never a failed export", async ({
    service,
    workspace,
  }) => {
    const { emulator } = service;
    const out = join(workspace.dir, "unpushed");
    const file = await workspace.write("unpushed.yaml", jobsPipelineYaml({ name: "metrics-unpushed", out }));
    const closed = `http://127.0.0.1:${await freePort()}`;
    const result = await runCli(["run", file, "--log-format", "json"], {
      env: { ...emulatorEnv(emulator), MDQ_PUSHGATEWAY_URL: closed },
    });
    expect(result.code, result.stderr).toBe(0);
    const warnings = result.stderr
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => line.msg === "Pushing metrics to the Pushgateway failed; the export goes on.");
    expect(warnings.length).toBeGreaterThanOrEqual(1);
    expect(warnings[0]).toMatchObject({
      level: "warn",
      pipeline: "metrics-unpushed",
      pushgateway: `${closed}/`,
    });
    expect((await readManifest(out)).complete).toBe(true);
  });
});

describe("--metrics-port", () => {
  const slowIt = it.extend<{ slowService: TestService }>({
    // Every request waits half a second, one slice at a time: the run lasts several one-second
    // scrape intervals.
    slowService: serviceFixture({ seed: 6, density: 20, faults: { latencyMs: 500 } }),
  });

  slowIt(
    "is scraped by Prometheus while the run lasts, and closes when it ends",
    async ({ slowService, workspace }) => {
      const { emulator } = slowService;
      const port = await freePort();
      const prometheus = await startPrometheus([`127.0.0.1:${port}`]);
      try {
        const out = join(workspace.dir, "scraped");
        const file = await workspace.write(
          "scraped.yaml",
          jobsPipelineYaml({ name: "metrics-scraped", out, slice: "30m", concurrency: 1 }),
        );
        const run = runCli(["run", file, "--metrics-port", String(port)], {
          env: { ...emulatorEnv(emulator), MDQ_LOG_LEVEL: "warn" },
        });
        let finished = false;
        void run.finally(() => (finished = true));
        const query = async (
          expr: string,
        ): Promise<{ metric: Record<string, string>; value: [number, string] }[]> => {
          const response = await fetch(`${prometheus.url}/api/v1/query?query=${encodeURIComponent(expr)}`);
          const body = (await response.json()) as {
            data: { result: { metric: Record<string, string>; value: [number, string] }[] };
          };
          return body.data.result;
        };
        const series = await waitFor(async () => {
          if (finished) throw new Error("the run ended before Prometheus scraped it");
          const result = await query('mdq_export_records_read_total{pipeline="metrics-scraped"}');
          return result.length > 0 ? result : undefined;
        }, "Prometheus to scrape the run");
        expect(series[0]?.metric).toMatchObject({
          job: "mdq-export",
          instance: `127.0.0.1:${port}`,
          kind: "jobs",
        });
        const result = await run;
        expect(result.code, result.stderr).toBe(0);
        const requests = await query('sum(mdq_export_requests_total{pipeline="metrics-scraped"})');
        expect(Number(requests[0]?.value[1])).toBeGreaterThan(0);
        // The port is closed once the run has ended.
        const refused = await new Promise<boolean>((resolve) => {
          const socket = connect(port, "127.0.0.1");
          socket.once("connect", () => (socket.destroy(), resolve(false)));
          socket.once("error", () => resolve(true));
        });
        expect(refused).toBe(true);
      } finally {
        await prometheus.close();
      }
    },
  );
});
