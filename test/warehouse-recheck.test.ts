// Late data re-checked: after records arrive late in one hour, `run --recheck` spends one date
// histogram, exports that hour again (replacing its file) and nothing else, and the output then
// holds exactly the service's records. The manifest keeps the re-check.
import { describe, expect } from "vitest";
import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import type { RunningEmulator } from "../src/emulator/server.js";
import { byId, checkCompleteExport } from "./support/export-checks.js";
import { collect, listDataFiles, readManifest, readNdjson, readParquet } from "./support/read-output.js";
import { kubernetesJobsYaml } from "./support/jobs-pipeline.js";
import { emulatorEnv, runCli } from "./support/cli-harness.js";
import { useEmulator } from "./support/use-emulator.js";

const it = useEmulator({ density: 5 });

const WINDOW = { start: "2026-03-10T00:00:00Z", end: "2026-03-10T04:00:00Z" };
const scope = { application: "atr", app_type: ["kubernetes"], domain: ["*"] };

const yaml = (out: string): string =>
  kubernetesJobsYaml(
    "recheck",
    `  - format: parquet
    to: ${out}
    path: "dt={date}/hour={hour}/part-{slice}-{seq}.parquet"
`,
  );

/**
 * Service requests the emulator received while `action` ran, per path. Token requests are left out:
 * the test emulator's clock is fixed in the past, so the client finds every token expired and asks
 * for one per request.
 */
async function requestsDuring(
  emulator: RunningEmulator,
  action: () => Promise<unknown>,
): Promise<Record<string, number>> {
  const before = emulator.requestCounts();
  await action();
  const after = emulator.requestCounts();
  return Object.fromEntries(
    Object.entries(after)
      .map(([path, count]) => [path, count - (before[path] ?? 0)] as const)
      .filter(([path, count]) => count > 0 && path !== "/oauth2/token"),
  );
}

describe("run --recheck", () => {
  it("re-exports exactly the hour that received late records, for one histogram more", async ({
    service,
    workspace,
  }) => {
    const { emulator } = service;
    const out = join(workspace.dir, "out");
    const file = await workspace.write("recheck.yaml", yaml(out));
    const env = emulatorEnv(emulator);
    const window = ["--start", WINDOW.start, "--end", WINDOW.end];
    expect((await runCli(["run", file, ...window], { env })).code).toBe(0);
    const first = await readManifest(out);

    emulator.addLateRecords({
      kind: "jobs",
      start: "2026-03-10T02:10:00Z",
      end: "2026-03-10T02:20:00Z",
      count: 2,
    });
    let result = { code: -1, stdout: "", stderr: "" };
    const recheck = await requestsDuring(emulator, async () => {
      result = await runCli(["run", file, ...window, "--recheck"], { env });
    });
    expect(result.code, result.stderr).toBe(0);
    const late = first.slices.find((slice) => slice.id === "20260310T020000Z");
    expect(result.stdout).toContain(
      `Re-checked committed slices: 1 changed and exported again: 20260310T020000Z: ${late?.read} → ${(late?.read ?? 0) + 6} (+6)`,
    );

    // The same hour exported on its own, into another directory: the requests a re-export needs.
    const alone = join(workspace.dir, "alone");
    const aloneFile = await workspace.write("alone.yaml", yaml(alone));
    const plain = await requestsDuring(emulator, () =>
      runCli(["run", aloneFile, "--start", "2026-03-10T02:00:00Z", "--end", "2026-03-10T03:00:00Z"], { env }),
    );
    expect(plain["/v3/jobs/aggs"]).toBeUndefined();
    expect(recheck).toEqual({ ...plain, "/v3/jobs/aggs": 1 });

    // Only the late hour's file changed; the output is now the service's data.
    const second = await readManifest(out);
    const unchanged = (m: typeof first) =>
      m.files.filter((f) => !f.slice.startsWith("20260310T02")).map((f) => f.sha256);
    expect(unchanged(second)).toEqual(unchanged(first));
    expect(second.files.find((f) => f.slice === "20260310T020000Z")?.rows).toBe((late?.read ?? 0) + 6);
    const hits = await collect(
      emulator.expectedHits("jobs", { ...scope, start_time: WINDOW.start, end_time: WINDOW.end }),
    );
    const { files } = await checkCompleteExport(out, hits.length);
    const table = await readParquet(out, files);
    expect([...byId(table.rows).keys()].sort()).toEqual(hits.map((hit) => hit._id).sort());
    expect(second.slices.find((slice) => slice.id === "20260310T020000Z")?.rechecks).toEqual([
      expect.objectContaining({ committed: late?.read, service: (late?.read ?? 0) + 6 }),
    ]);

    // Nothing changed since: the next re-check exports nothing.
    const quiet = await requestsDuring(emulator, async () => {
      result = await runCli(["run", file, ...window, "--recheck"], { env });
    });
    expect(result.stdout).toContain("Re-checked committed slices: none changed");
    expect(quiet["/v3/jobs/query"]).toBeUndefined();
    expect(quiet["/v3/jobs/aggs"]).toBe(1);
  });
});

/** An HTTP server standing in for a Pushgateway: it keeps the body of every push. */
async function startPushRecorder(bodies: string[]): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      bodies.push(Buffer.concat(chunks).toString("utf8"));
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe("run --recheck when the service's count goes down", () => {
  // Another day than the test above, so the records it adds do not meet the ones taken here.
  const DAY = { start: "2026-03-11T00:00:00Z", end: "2026-03-11T04:00:00Z" };
  const window = ["--start", DAY.start, "--end", DAY.end];
  const ndjsonYaml = (out: string, recheck = ""): string =>
    kubernetesJobsYaml(
      "decrease",
      `  - format: ndjson
    to: ${out}
    path: "part-{slice}-{seq}.ndjson"
${recheck}`,
    );
  const slicesOf = (manifest: Awaited<ReturnType<typeof readManifest>>) =>
    Object.fromEntries(manifest.slices.map((slice) => [slice.id, slice]));

  // Regression: an hour that answered 0 printed `59 → 0 (-59)`, its file was deleted, the manifest
  // dropped it, and the run exited 0.
  it("keeps the files, warns in the summary, the log, the metrics and the report, and records it once", async ({
    service,
    workspace,
  }) => {
    const { emulator } = service;
    const out = join(workspace.dir, "decrease-keep");
    const file = await workspace.write("decrease-keep.yaml", ndjsonYaml(out));
    const env = emulatorEnv(emulator);
    expect((await runCli(["run", file, ...window], { env })).code).toBe(0);
    const first = await readManifest(out);
    const emptied = slicesOf(first)["20260311T010000Z"];
    const thinned = slicesOf(first)["20260311T030000Z"];

    // Retention took all of 01:00 and an outage hides one record per stream of 03:00.
    emulator.loseRecords({
      kind: "jobs",
      start: "2026-03-11T01:00:00Z",
      end: "2026-03-11T02:00:00Z",
      count: 10_000,
    });
    emulator.loseRecords({
      kind: "jobs",
      start: "2026-03-11T03:00:00Z",
      end: "2026-03-11T04:00:00Z",
      count: 1,
    });
    const streams = 3;
    const report = join(workspace.dir, "decrease-report.json");
    const result = await runCli(["run", file, ...window, "--recheck", "--report", report], { env });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("Re-checked committed slices: none changed");
    expect(result.stdout).toContain(
      `Warning: the service now has fewer records than were exported in 2 slices; their files are kept: ` +
        `20260311T010000Z: ${emptied?.read} → 0 (-${emptied?.read}), ` +
        `20260311T030000Z: ${thinned?.read} → ${(thinned?.read ?? 0) - streams} (-${streams})`,
    );
    expect(result.stderr).toContain("the service now has fewer records than were exported");

    // Nothing was removed or rewritten, and the manifest still lists every file.
    const second = await readManifest(out);
    expect(second.files).toEqual(first.files);
    expect(second.complete).toBe(true);
    expect(slicesOf(second)["20260311T010000Z"]?.rechecks).toEqual([
      expect.objectContaining({ committed: emptied?.read, service: 0, action: "kept" }),
    ]);

    const written = JSON.parse(await readFile(report, "utf8")) as {
      recheck_decreases: unknown[];
      warnings: string[];
    };
    expect(written.recheck_decreases).toEqual([
      { slice: "20260311T010000Z", committed: emptied?.read, service: 0 },
      { slice: "20260311T030000Z", committed: thinned?.read, service: (thinned?.read ?? 0) - streams },
    ]);
    expect(written.warnings[0]).toContain("the service now has fewer records than were exported");

    // The same decrease found again is warned about again but recorded once.
    const again = await runCli(["run", file, ...window, "--recheck"], { env });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain("the service now has fewer records than were exported in 2 slices");
    expect(slicesOf(await readManifest(out))["20260311T010000Z"]?.rechecks).toHaveLength(1);
    expect((await readManifest(out)).files).toEqual(first.files);
  });

  it("counts the decrease in mdq_export_recheck_decreases_total", async ({ service, workspace }) => {
    const { emulator } = service;
    const out = join(workspace.dir, "decrease-metrics");
    const file = await workspace.write("decrease-metrics.yaml", ndjsonYaml(out));
    const env = emulatorEnv(emulator);
    // The hours emptied above are already gone at the service: export 02:00–03:00, then take some.
    const hour = ["--start", "2026-03-11T02:00:00Z", "--end", "2026-03-11T03:00:00Z"];
    expect((await runCli(["run", file, ...hour], { env })).code).toBe(0);
    emulator.loseRecords({
      kind: "jobs",
      start: "2026-03-11T02:00:00Z",
      end: "2026-03-11T03:00:00Z",
      count: 1,
    });
    const pushed: string[] = [];
    const gateway = await startPushRecorder(pushed);
    try {
      const result = await runCli(["run", file, ...hour, "--recheck", "--pushgateway", gateway.url], { env });
      expect(result.code, result.stderr).toBe(0);
    } finally {
      await gateway.close();
    }
    expect(pushed.at(-1)).toMatch(/^mdq_export_recheck_decreases_total\{[^}]*\} 1$/m);
  });

  it("replaces the files when the pipeline says recheck: { on_decrease: replace }", async ({
    service,
    workspace,
  }) => {
    const { emulator } = service;
    const out = join(workspace.dir, "decrease-replace");
    const keep = await workspace.write("decrease-replace.yaml", ndjsonYaml(out));
    const env = emulatorEnv(emulator);
    const range = ["--start", "2026-03-11T04:00:00Z", "--end", "2026-03-11T06:00:00Z"];
    expect((await runCli(["run", keep, ...range], { env })).code).toBe(0);
    const before = await readManifest(out);
    emulator.loseRecords({
      kind: "jobs",
      start: "2026-03-11T05:00:00Z",
      end: "2026-03-11T06:00:00Z",
      count: 2,
    });

    const replace = await workspace.write(
      "decrease-replace.yaml",
      ndjsonYaml(out, "recheck: { on_decrease: replace }\n"),
    );
    const result = await runCli(["run", replace, ...range, "--recheck"], { env });
    expect(result.code, result.stderr).toBe(0);
    const shrunk = slicesOf(before)["20260311T050000Z"];
    expect(result.stdout).toContain(
      `1 changed and exported again: 20260311T050000Z: ${shrunk?.read} → ${(shrunk?.read ?? 0) - 6} (-6)`,
    );
    const after = await readManifest(out);
    expect(slicesOf(after)["20260311T050000Z"]?.rechecks).toEqual([
      expect.objectContaining({ action: "exported", service: (shrunk?.read ?? 0) - 6 }),
    ]);
    const hits = await collect(
      emulator.expectedHits("jobs", {
        ...scope,
        start_time: "2026-03-11T04:00:00Z",
        end_time: "2026-03-11T06:00:00Z",
      }),
    );
    const rows = await readNdjson(out, await listDataFiles(out));
    expect(rows.map((row) => row._id).sort()).toEqual(hits.map((hit) => hit._id).sort());
  });
});

describe("run --recheck with 15-minute slices", () => {
  // Regression: the probe counted per hour, so three of every four 15-minute slices counted 0 and
  // every re-check exported every slice again, writing `service: 0` into the history.
  it("finds nothing changed when nothing did, and exports nothing again", async ({ service, workspace }) => {
    const { emulator } = service;
    const out = join(workspace.dir, "quarters");
    const file = await workspace.write(
      "quarters.yaml",
      kubernetesJobsYaml(
        "quarters",
        `  - format: ndjson
    to: ${out}
`,
      ).replace("slice: 1h", "slice: 15m"),
    );
    const env = emulatorEnv(emulator);
    const range = ["--start", "2026-03-09T00:00:00Z", "--end", "2026-03-09T02:00:00Z"];
    expect((await runCli(["run", file, ...range], { env })).code).toBe(0);
    let result = { code: -1, stdout: "", stderr: "" };
    const recheck = await requestsDuring(emulator, async () => {
      result = await runCli(["run", file, ...range, "--recheck"], { env });
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("Re-checked committed slices: none changed");
    expect(recheck["/v3/jobs/query"]).toBeUndefined();
    const manifest = await readManifest(out);
    expect(manifest.slices).toHaveLength(8);
    expect(manifest.slices.every((slice) => slice.rechecks === undefined)).toBe(true);
  });
});
