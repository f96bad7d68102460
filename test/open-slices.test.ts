// Open windows: an hourly `{ start: last-hour, slice: 15m }` run at 02:43:57.692 cuts its last slice
// at that instant while the service is still indexing. Regression: that slice was committed with
// the records indexed so far, recorded as done and skipped by every later run, and the manifest said
// complete. Now a slice that ends after `now − settle` is written as open and redone by the next run
// until it has settled, also when that run's window no longer covers it. Time is set with `--now`
// and the service's indexing horizon with the emulator's `setIndexedUntil`; nothing sleeps.
import { describe, expect } from "vitest";
import { access, readFile } from "node:fs/promises";
import { join } from "node:path";
import type { RunningEmulator } from "../src/emulator/server.js";
import { repeatedIds } from "./support/export-checks.js";
import { collect, listDataFiles, readManifest, readNdjson } from "./support/read-output.js";
import { emulatorEnv, REMOTE_SERVICE_YAML, runCli } from "./support/cli-harness.js";
import { useEmulator } from "./support/use-emulator.js";

const it = useEmulator({ density: 40 });

const scope = { application: "atr", app_type: ["kubernetes"], domain: ["*"] };

const yaml = (out: string, window = "{ start: last-hour, slice: 15m }"): string => `name: open-slices
${REMOTE_SERVICE_YAML}
source:
  kind: jobs
  application: atr
  app_type: [kubernetes]
  domain: ["*"]
  window: ${window}
  strategy: pit
  page_size: 40
sinks:
  - format: ndjson
    to: ${out}
    path: "part-{slice}-{seq}.ndjson"
`;

async function serviceIds(emulator: RunningEmulator, start: string, end: string): Promise<string[]> {
  const hits = await collect(emulator.expectedHits("jobs", { ...scope, start_time: start, end_time: end }));
  return hits.map((hit) => hit._id).sort();
}

async function exportedIds(out: string): Promise<string[]> {
  const rows = await readNdjson(out, await listDataFiles(out));
  expect(repeatedIds(rows)).toEqual([]);
  return rows.map((row) => String(row._id)).sort();
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

describe("open slices", () => {
  it("writes the slices after now minus settle as open and redoes them until they settle", async ({
    service,
    workspace,
  }) => {
    const { emulator } = service;
    const out = join(workspace.dir, "hourly");
    const file = await workspace.write("hourly.yaml", yaml(out));
    const env = emulatorEnv(emulator);

    // 02:43:57.692: the service has indexed up to this instant and no further.
    const first = "2026-03-10T02:43:57.692Z";
    emulator.setIndexedUntil(first);
    let result = await runCli(["run", file, "--now", first], { env });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("Open: 2 slices end after now minus window.settle (15m)");
    let manifest = await readManifest(out);
    expect(manifest.window).toEqual({ start: "2026-03-10T01:00:00.000Z", end: first });
    expect(manifest.complete).toBe(false);
    expect(await exists(join(out, "_SUCCESS"))).toBe(false);
    const openIds = manifest.slices.filter((slice) => slice.open === true).map((slice) => slice.id);
    expect(openIds).toEqual(["20260310T021500Z", "20260310T023000Z"]);
    const state = JSON.parse(await readFile(join(out, "_mdq-export/state.json"), "utf8")) as {
      slices: Record<string, { open?: boolean; end: string }>;
    };
    expect(state.slices["20260310T023000Z"]).toMatchObject({ open: true, end: first });
    expect(state.slices["20260310T020000Z"]?.open).toBeUndefined();
    const cut = manifest.slices.find((slice) => slice.id === "20260310T023000Z");

    // `plan` at the same instant shows the same open slices.
    const plan = await runCli(["plan", file, "--now", first, "--json"], { env });
    expect(plan.code, plan.stderr).toBe(0);
    const planned = JSON.parse(plan.stdout) as { slices: { id: string; open: boolean }[] };
    expect(planned.slices.filter((slice) => slice.open).map((slice) => slice.id)).toEqual(openIds);

    // An hour later the service has indexed the rest of 02:30–02:45 (and more): the next run redoes
    // the open slices, which its window still covers, in full.
    const second = "2026-03-10T03:43:00.000Z";
    emulator.setIndexedUntil(second);
    result = await runCli(["run", file, "--now", second], { env });
    expect(result.code, result.stderr).toBe(0);
    manifest = await readManifest(out);
    const redone = manifest.slices.find((slice) => slice.id === "20260310T023000Z");
    expect(redone).toMatchObject({ end: "2026-03-10T02:45:00.000Z" });
    expect(redone?.open).toBeUndefined();
    const full = await serviceIds(emulator, "2026-03-10T02:30:00.000Z", "2026-03-10T02:45:00.000Z");
    expect(redone?.read).toBe(full.length);
    expect(full.length).toBeGreaterThan(cut?.read ?? 0);
    expect(manifest.slices.filter((slice) => slice.open === true).map((slice) => slice.id)).toEqual([
      "20260310T031500Z",
      "20260310T033000Z",
    ]);
    expect(manifest.complete).toBe(false);
    expect(await exportedIds(out)).toEqual(await serviceIds(emulator, "2026-03-10T01:00:00.000Z", second));

    // A backfill whose window no longer covers the open slices redoes them anyway, over the range
    // they were written for; then nothing is open and the manifest is complete.
    emulator.setIndexedUntil(undefined);
    result = await runCli(
      [
        "run",
        file,
        "--now",
        "2026-03-11T00:00:00Z",
        "--start",
        "2026-03-10T00:00:00Z",
        "--end",
        "2026-03-10T01:00:00Z",
      ],
      { env },
    );
    expect(result.code, result.stderr).toBe(0);
    manifest = await readManifest(out);
    expect(manifest.slices.filter((slice) => slice.open === true)).toEqual([]);
    expect(manifest.complete).toBe(true);
    expect(await exists(join(out, "_SUCCESS"))).toBe(true);
    expect(manifest.slices.find((slice) => slice.id === "20260310T033000Z")).toMatchObject({
      end: second,
    });
    expect(await exportedIds(out)).toEqual(await serviceIds(emulator, "2026-03-10T00:00:00.000Z", second));
  });

  // Regression: with `slice: 15m` the plan showed 195, 0, 0, 0 where the slices held 50, 48, 50, 47.
  it("plans pipelines/serverless-logs.yaml at 02:43:57.692 with each quarter hour's own count", async ({
    service,
    workspace,
  }) => {
    const { emulator } = service;
    const now = "2026-11-26T02:43:57.692Z";
    emulator.setIndexedUntil(now);
    try {
      const env = { ...emulatorEnv(emulator), MDQ_OUT_DIR: join(workspace.dir, "serverless") };
      const result = await runCli(["plan", "pipelines/serverless-logs.yaml", "--now", now, "--json"], {
        env,
      });
      expect(result.code, result.stderr).toBe(0);
      const plan = JSON.parse(result.stdout) as {
        slices: { id: string; start: string; end: string; expected: number; open: boolean }[];
      };
      expect(plan.slices.map((slice) => slice.id)).toEqual([
        "20261126T010000Z",
        "20261126T011500Z",
        "20261126T013000Z",
        "20261126T014500Z",
        "20261126T020000Z",
        "20261126T021500Z",
        "20261126T023000Z",
      ]);
      for (const slice of plan.slices) {
        const count = emulator.expectedCount("/v2/logs/scroll", {
          application: "eventops",
          app_type: "serverless",
          log_group: ["/aws/lambda/orders", "/aws/lambda/billing"],
          tenant: ["*"],
          stage: ["prod"],
          start_time: slice.start,
          end_time: slice.end,
          size: 2000,
        });
        expect(slice.expected, slice.id).toBe(count);
        expect(count).toBeGreaterThan(0);
      }
      expect(plan.slices.filter((slice) => slice.open).map((slice) => slice.id)).toEqual([
        "20261126T021500Z",
        "20261126T023000Z",
      ]);
    } finally {
      emulator.setIndexedUntil(undefined);
    }
  });

  it("refuses a --now that is not an ISO timestamp with a zone, naming the flag (exit 2)", async ({
    service,
    workspace,
  }) => {
    const { emulator } = service;
    const file = await workspace.write("now.yaml", yaml(join(workspace.dir, "now")));
    const before = emulator.requestCount();
    const result = await runCli(["run", file, "--now", "now-1h"], { env: emulatorEnv(emulator) });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--now "now-1h" is not an ISO 8601 timestamp with a zone');
    expect(emulator.requestCount()).toBe(before);
  });

  // Regression: a --now a day ahead settled the slices the service had not indexed yet; they were
  // recorded complete with 0 records and every later run skipped them.
  it("refuses a --now ahead of the clock on every command that takes it, naming both times (exit 2, nothing requested, nothing written)", async ({
    service,
    workspace,
  }) => {
    const { emulator } = service;
    const out = join(workspace.dir, "ahead");
    const file = await workspace.write("ahead.yaml", yaml(out));
    const ahead = new Date(Date.now() + 86_400_000).toISOString();
    const before = emulator.requestCount();
    for (const command of [["run"], ["plan"], ["validate"], ["schema"], ["ddl", "--dialect", "duckdb"]]) {
      const result = await runCli([...command, file, "--now", ahead], { env: emulatorEnv(emulator) });
      expect(result.code, `${command[0]}: ${result.stderr}`).toBe(2);
      expect(result.stdout).toBe("");
      const message = new RegExp(
        `--now "${ahead}" \\(${ahead}\\) is ahead of this machine's clock \\(\\d{4}-\\d\\d-\\d\\dT[0-9:.]+Z\\) by more than 5 minutes`,
      );
      expect(result.stderr, command[0]).toMatch(message);
    }
    expect(emulator.requestCount()).toBe(before);
    expect(await exists(out)).toBe(false);
    // Within the tolerance (a scheduler's clock a little ahead) it is still a --now.
    const nearly = new Date(Date.now() + 60_000).toISOString();
    const plan = await runCli(["validate", file, "--now", nearly], { env: emulatorEnv(emulator) });
    expect(plan.code, plan.stderr).toBe(0);
  });

  it("validates window.settle as a duration with the line and column of the value", async ({
    service,
    workspace,
  }) => {
    const { emulator } = service;
    const file = await workspace.write(
      "settle.yaml",
      yaml(join(workspace.dir, "settle"), "{ start: last-hour, slice: 15m, settle: 15 minutes }"),
    );
    const result = await runCli(["validate", file], { env: emulatorEnv(emulator) });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      'settle.yaml:12:51: source.window.settle: "15 minutes": expected a duration such as 0s, 5m, 15m, 1h',
    );
  });
});
