// The run report (--report) has the same keys whatever the outcome — done, stopped (exit 75), failed —
// and its counts equal the manifest and the requests the emulator received; log lines carry the run
// id and the pipeline once each, and their level comes from MDQ_LOG_LEVEL.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator } from "../src/emulator/server.js";
import type { RunningEmulator } from "../src/emulator/server.js";
import type { Manifest } from "../src/pipeline/output-state/manifest.js";
import type { RunReport } from "../src/observability/run-report.js";
import { jobsPipelineYaml } from "./support/jobs-pipeline.js";
import { createWorkspace, emulatorEnv, runCli, waitFor } from "./support/cli-harness.js";
import type { Workspace } from "./support/cli-harness.js";

let workspace: Workspace;
beforeAll(async () => {
  workspace = await createWorkspace("mdq-report-");
});
afterAll(async () => {
  await workspace?.remove();
});

async function runWithReport(
  emulator: RunningEmulator,
  name: string,
  options: { reserve?: number; env?: Record<string, string>; concurrency?: number } = {},
): Promise<{ code: number; report: RunReport; out: string; stderr: string }> {
  const out = join(workspace.dir, name);
  const file = await workspace.write(
    `${name}.yaml`,
    jobsPipelineYaml({
      name,
      out,
      endHour: 12,
      concurrency: options.concurrency ?? 1,
      quotaReserve: options.reserve ?? 0,
    }),
  );
  const reportFile = join(workspace.dir, `${name}.report.json`);
  const result = await runCli(["run", file, "--report", reportFile], {
    env: { ...emulatorEnv(emulator), ...options.env },
  });
  const report = JSON.parse(await readFile(reportFile, "utf8")) as RunReport;
  return { code: result.code, report, out, stderr: result.stderr };
}

/** The keys of the report, nested ones included, without the per-operation and per-reason maps. */
function shape(report: RunReport): string[] {
  const { requests, retries, ...rest } = report;
  return [
    ...Object.keys(rest),
    ...Object.keys(requests).map((key) => `requests.${key}`),
    ...Object.keys(retries).map((key) => `retries.${key}`),
    ...Object.keys(report.slices).map((key) => `slices.${key}`),
    ...Object.keys(report.quota).map((key) => `quota.${key}`),
    ...Object.keys(report.concurrency).map((key) => `concurrency.${key}`),
    ...Object.keys(report.slice_results[0] ?? {}).map((key) => `slice_results.${key}`),
  ].sort();
}

describe("--report", () => {
  it("of a complete run: outcome, counts equal to the manifest and the emulator's requests, manifest paths", async () => {
    const emulator = await startEmulator({ seed: 8, density: 30 });
    try {
      const { code, report, out, stderr } = await runWithReport(emulator, "report-complete");
      expect(code, stderr).toBe(0);
      const manifest = JSON.parse(await readFile(join(out, "_manifest.json"), "utf8")) as Manifest;
      expect(report).toMatchObject({
        report_version: 2,
        pipeline: "report-complete",
        run_id: manifest.run_id,
        outcome: "complete",
        exit_code: 0,
        error: null,
        shard: null,
        window: { start: "2026-03-10T00:00:00.000Z", end: "2026-03-10T12:00:00.000Z" },
        slices: { planned: 12, committed: 12, skipped: 0, failed: 0, stopped: 0, pending: 0 },
        records: { read: manifest.totals.rows, written: manifest.totals.rows },
        manifests: [`${out}/_manifest.json`],
        // One request at a time has nowhere to go down to, and nothing lets it go up.
        concurrency: { start: 1, lowest: 1, end: 1, changes: 0 },
      });
      expect(report.sinks).toEqual([
        {
          index: 0,
          to: out,
          format: "ndjson",
          rows: manifest.totals.rows,
          bytes: manifest.totals.bytes,
          manifest: `${out}/_manifest.json`,
        },
      ]);
      expect(report.requests.total).toBe(emulator.requestCount());
      expect(report.quota.before).toBeGreaterThan(report.quota.after ?? Infinity);
      for (const slice of manifest.slices) {
        expect(report.slice_results.find((result) => result.id === slice.id)).toMatchObject({
          outcome: "committed",
          records_read: slice.read,
          expected: slice.expected,
        });
      }
    } finally {
      await emulator.close();
    }
  });

  it("shows the concurrency the client went down to while the service throttled with 429", async () => {
    const emulator = await startEmulator({
      seed: 8,
      density: 30,
      faults: { rateLimitRate: 0.2, retryAfterSeconds: 0 },
    });
    try {
      const { code, report, stderr } = await runWithReport(emulator, "report-throttled", { concurrency: 4 });
      expect(code, stderr).toBe(0);
      expect(emulator.faultCounts().rateLimit).toBeGreaterThan(0);
      expect(report.retries.by_reason["429"]).toBe(emulator.faultCounts().rateLimit);
      expect(report.concurrency.start).toBe(4);
      expect(report.concurrency.lowest).toBeLessThan(4);
      expect(report.concurrency.lowest).toBeGreaterThanOrEqual(1);
      expect(report.concurrency.changes).toBeGreaterThan(0);
    } finally {
      await emulator.close();
    }
  });

  it("has the same keys when the run stops at the quota reserve (exit 75) and when it fails (exit 1)", async () => {
    const emulator = await startEmulator({ seed: 8, density: 30 });
    const scarce = await startEmulator({ seed: 8, density: 30, quota: 30 });
    try {
      const complete = await runWithReport(emulator, "report-shape");
      const stopped = await runWithReport(scarce, "report-stopped", { reserve: 10 });
      expect(stopped.code, stopped.stderr).toBe(75);
      expect(stopped.report).toMatchObject({
        outcome: "stopped",
        exit_code: 75,
        error: { code: "QUOTA_EXHAUSTED" },
      });
      expect(stopped.report.slices.pending).toBeGreaterThan(0);
      // The quota stops the run: the slice it cut short is stopped, not failed.
      expect(stopped.report.slices.failed).toBe(0);
      expect(stopped.report.slice_results.some((slice) => slice.outcome === "failed")).toBe(false);
      expect(stopped.report.manifests).toEqual([`${stopped.out}/_manifest.json`]);
      const failed = await runWithReport(emulator, "report-failed", { env: { MDQ_CLIENT_SECRET: "wrong" } });
      expect(failed.code).toBe(1);
      expect(failed.report).toMatchObject({
        outcome: "failed",
        exit_code: 1,
        error: { code: "AUTH_FAILED" },
      });
      expect(failed.report.error?.message).not.toContain("wrong");
      expect(shape(stopped.report)).toEqual(shape(complete.report));
      expect(Object.keys(failed.report).sort()).toEqual(Object.keys(complete.report).sort());
    } finally {
      await scarce.close();
      await emulator.close();
    }
  });

  it("counts a slice that gave up as failed, not stopped (regression: the run's events lost sliceGaveUp)", async () => {
    const emulator = await startEmulator({ seed: 8, density: 30, faults: { latencyMs: 40 } });
    try {
      // Once the first page has been asked for, every body arrives cut in half, so the slices give up.
      const running = runWithReport(emulator, "report-gave-up");
      await waitFor(() => emulator.requestCount("/v3/jobs/query") > 0, "the first page");
      emulator.setFaults({ truncateRate: 1, latencyMs: 40 });
      const gaveUp = await running;
      expect(gaveUp.stderr).toMatch(/gave up after \d+ attempts?/);
      expect(gaveUp.report.slices.failed).toBeGreaterThan(0);
      expect(gaveUp.report.slice_results.filter((slice) => slice.outcome === "failed")).toHaveLength(
        gaveUp.report.slices.failed,
      );
    } finally {
      await emulator.close();
    }
  });

  it("- writes it to stdout, and the run summary then goes to stderr", async () => {
    const emulator = await startEmulator({ seed: 9, density: 5 });
    try {
      const out = join(workspace.dir, "report-stdout");
      const file = await workspace.write(
        "report-stdout.yaml",
        jobsPipelineYaml({ name: "report-stdout", out, endHour: 12, concurrency: 1 }),
      );
      const result = await runCli(["run", file, "--report", "-"], { env: emulatorEnv(emulator) });
      expect(result.code, result.stderr).toBe(0);
      expect((JSON.parse(result.stdout) as RunReport).outcome).toBe("complete");
      expect(result.stderr).toContain("report-stdout: complete");
    } finally {
      await emulator.close();
    }
  });
});

describe("logs", () => {
  // Regression: schema and ddl made their logger from --log-level alone, so MDQ_LOG_LEVEL and
  // MDQ_LOG_FORMAT, which every other command follows, changed nothing there.
  it("schema and ddl follow MDQ_LOG_LEVEL and MDQ_LOG_FORMAT as run does", async () => {
    const emulator = await startEmulator({ seed: 11, density: 5 });
    try {
      const file = await workspace.write(
        "schema-logs.yaml",
        jobsPipelineYaml({ name: "schema-logs", out: join(workspace.dir, "schema-logs"), endHour: 2 }),
      );
      for (const command of [
        ["schema", file],
        ["ddl", file, "--dialect", "duckdb"],
      ]) {
        const loud = await runCli(command, {
          env: { ...emulatorEnv(emulator), MDQ_LOG_LEVEL: "debug", MDQ_LOG_FORMAT: "json" },
        });
        expect(loud.code, loud.stderr).toBe(0);
        // Every line on stderr is a JSON log line.
        expect(loud.logs).toHaveLength(loud.stderr.split("\n").filter((line) => line !== "").length);
        expect(
          loud.logs.some((line) => line.level === "debug" && line.msg === "Obtained an access token."),
        ).toBe(true);
        const quiet = await runCli(command, { env: { ...emulatorEnv(emulator), MDQ_LOG_LEVEL: "error" } });
        expect(quiet.code, quiet.stderr).toBe(0);
        expect(quiet.stderr).toBe("");
      }
    } finally {
      await emulator.close();
    }
  });

  it("every line carries the run id and the pipeline; MDQ_LOG_LEVEL sets the level", async () => {
    const emulator = await startEmulator({ seed: 10, density: 5 });
    try {
      const out = join(workspace.dir, "logs");
      const file = await workspace.write(
        "logs.yaml",
        jobsPipelineYaml({ name: "logs-level", out, endHour: 12, concurrency: 1 }),
      );
      const result = await runCli(["run", file], {
        env: { ...emulatorEnv(emulator), MDQ_LOG_LEVEL: "debug" },
      });
      expect(result.code, result.stderr).toBe(0);
      const lines = result.stderr
        .split("\n")
        .filter((line) => line !== "")
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(lines.some((line) => line.level === "debug")).toBe(true);
      const runId = lines.find((line) => line.msg === "Run started.")?.run_id;
      expect(runId).toMatch(/^logs-level-/);
      for (const line of lines) expect(line).toMatchObject({ run_id: runId, pipeline: "logs-level" });
      // Each key once: collectors such as Elasticsearch refuse a line that repeats one.
      for (const raw of result.stderr.split("\n").filter((line) => line !== "")) {
        expect(raw.split('"run_id":').length - 1, raw).toBe(1);
        expect(raw.split('"pipeline":').length - 1, raw).toBe(1);
      }
      const quiet = await runCli(["run", file, "--force"], {
        env: { ...emulatorEnv(emulator), MDQ_LOG_LEVEL: "error" },
      });
      expect(quiet.code).toBe(0);
      expect(quiet.stderr).toBe("");
    } finally {
      await emulator.close();
    }
  });

  it("plan and fields take the level from MDQ_LOG_LEVEL and the format from --log-format, on their stderr", async () => {
    const emulator = await startEmulator({ seed: 10, density: 5 });
    try {
      const file = await workspace.write(
        "plan-logs.yaml",
        jobsPipelineYaml({ name: "plan-logs", out: join(workspace.dir, "plan-logs"), endHour: 2 }),
      );
      const env = { ...emulatorEnv(emulator), MDQ_LOG_LEVEL: "debug" };
      const json = await runCli(["plan", file], { env });
      expect(json.code, json.stderr).toBe(0);
      expect(json.logs.some((line) => line.level === "debug" && line.msg === "Service answered.")).toBe(true);
      const quiet = await runCli(["plan", file], { env: { ...env, MDQ_LOG_LEVEL: "error" } });
      expect(quiet.code).toBe(0);
      expect(quiet.stderr).toBe("");
      const pretty = await runCli(["fields", file, "--log-format", "pretty"], { env });
      expect(pretty.code, pretty.stderr).toBe(0);
      const prettyLines = pretty.stderr.split("\n").filter((line) => line !== "");
      expect(prettyLines.length).toBeGreaterThan(0);
      expect(prettyLines.every((line) => !line.startsWith("{"))).toBe(true);
      const refused = await runCli(["plan", file, "--log-format", "xml"], { env });
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain('--log-format "xml" is not one of json, pretty');
    } finally {
      await emulator.close();
    }
  });
});
