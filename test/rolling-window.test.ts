// A rolling snapshot window runs every day. The shipped billing example (`window: { start:
// now-30d/d }`, a v1 time_range: one slice whose start moves with the day) used to be refused on its
// second day ("slice … overlaps slice … already committed", exit 2, --force too). Now each day's run
// replaces the output's snapshot: read by glob, the output is the service's records for the latest
// window, and the last snapshot stays whole until the next one commits. Days are played with the
// emulator's clock and `--now` together (the service resolves a v1 time_range against its own clock).
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { RunningEmulator } from "../src/emulator/server.js";
import { fetchToken, post } from "./emulator-http.js";
import { byId, checkCompleteExport } from "./support/export-checks.js";
import { hitRecord, parquetRowOf } from "./support/expected-rows.js";
import {
  collect,
  listDataFiles,
  readManifest,
  readNdjson,
  readParquet,
  viewColumnCounts,
} from "./support/read-output.js";
import {
  createWorkspace,
  EMULATOR_NOW,
  EXPORT_EMULATOR,
  REMOTE_SERVICE_YAML,
  runCli,
  startTestService,
} from "./support/cli-harness.js";
import type { CliResult, TestService, Workspace } from "./support/cli-harness.js";

const FILE = "pipelines/billing-per-domain.yaml";
const DOMAINS = ["alpha.example", "bravo.example", "charlie.example"];
const DAY_MS = 86_400_000;
/** Requests the emulator answers per client and day: enough for the runs, few enough to spend. */
const QUOTA = 40;

type Summary = Record<string, unknown>;

/** A service whose clock the test moves, and an output folder for the example. */
interface Days {
  service: TestService;
  workspace: Workspace;
  env: Record<string, string>;
  /** Moves the service's clock to `day` days (fractions too) after EMULATOR_NOW and returns that instant for --now. */
  goTo(day: number): string;
  close(): Promise<void>;
}

async function startDays(): Promise<Days> {
  let now = EMULATOR_NOW;
  const service = await startTestService({ ...EXPORT_EMULATOR, density: 2, quota: QUOTA, clock: () => now });
  const workspace = await createWorkspace("rolling");
  return {
    service,
    workspace,
    env: { ...service.env, MDQ_OUT_DIR: workspace.dir },
    goTo(day) {
      now = EMULATOR_NOW + Math.round(day * DAY_MS);
      return new Date(now).toISOString();
    },
    close: async () => {
      await service.close();
      await workspace.remove();
    },
  };
}

/**
 * The service's own answer for the example's window at its current clock, one summary per domain,
 * with the keys the example's `column_names: snake_case` gives them: `WBS` is `wbs`, the rest are
 * snake_case already.
 */
async function serviceSummaries(emulator: RunningEmulator): Promise<Summary[]> {
  const token = await fetchToken(emulator);
  const summaries: Summary[] = [];
  for (const domain of DOMAINS) {
    const answer = await post(emulator, "/v1/query", { domain, time_range: "now-30d/d" }, token);
    expect(answer.status).toBe(200);
    const summary = answer.body.summary as Summary;
    summaries.push(
      Object.fromEntries(Object.entries(summary).map(([key, value]) => [key.toLowerCase(), value])),
    );
  }
  return summaries;
}

const byDomain = (rows: Summary[]): Summary[] =>
  [...rows].sort((a, b) => String(a.domain).localeCompare(String(b.domain)));

/** What a warehouse reads of both sinks equals `summaries`: every file on disk, and the DDL's glob. */
async function expectOutputOf(days: Days, now: string, summaries: Summary[]): Promise<void> {
  const parquetDir = join(days.workspace.dir, "billing/parquet");
  const ndjsonDir = join(days.workspace.dir, "billing/ndjson");
  const table = await readParquet(parquetDir, await listDataFiles(parquetDir));
  expect(byDomain(table.rows)).toEqual(
    byDomain(summaries).map((summary) => parquetRowOf(summary, table.types)),
  );
  expect(byDomain(await readNdjson(ndjsonDir, await listDataFiles(ndjsonDir)))).toEqual(byDomain(summaries));
  for (const sink of [1, 2]) {
    const ddl = await runCli(
      ["ddl", FILE, "--sink", String(sink), "--dialect", "duckdb", "--table", "t", "--now", now],
      { env: days.env },
    );
    expect(ddl.code, ddl.stderr).toBe(0);
    expect((await viewColumnCounts(ddl.stdout, "t", ["domain"]))["*"], `sink ${sink}`).toBe(DOMAINS.length);
  }
}

async function runDay(days: Days, now: string, ...flags: string[]): Promise<CliResult> {
  return runCli(["run", FILE, "--now", now, "--log-level", "error", ...flags], { env: days.env });
}

describe("a rolling snapshot window (the shipped billing example)", () => {
  it("runs on three consecutive days, --force on the third: each run replaces the last snapshot, and the output read by glob is the latest window's records", async () => {
    const days = await startDays();
    try {
      const seen: Summary[][] = [];
      for (const [day, flags] of [
        [0, []],
        [1, []],
        [2, ["--force"]],
      ] as const) {
        const now = days.goTo(day);
        const result = await runDay(days, now, ...flags);
        expect(result.stderr, `day ${day}`).toBe("");
        expect(result.code, `day ${day}`).toBe(0);
        const summaries = await serviceSummaries(days.service.emulator);
        seen.push(summaries);
        for (const sink of ["parquet", "ndjson"]) {
          const { manifest, files } = await checkCompleteExport(
            join(days.workspace.dir, "billing", sink),
            DOMAINS.length,
          );
          // One snapshot, the day's own: its window starts 30 days before the day, rounded down.
          expect(manifest.slices.map((slice) => slice.start)).toEqual([
            new Date(Math.floor((Date.parse(now) - 30 * DAY_MS) / DAY_MS) * DAY_MS).toISOString(),
          ]);
          expect(files).toHaveLength(1);
        }
        await expectOutputOf(days, now, summaries);
      }
      // The windows really differ from day to day, so reading an older snapshot would show.
      expect(seen[2]).not.toEqual(seen[0]);
      const verify = await runCli(["verify", FILE], { env: days.env });
      expect(verify.code, verify.stdout).toBe(0);
    } finally {
      await days.close();
    }
  });

  it("a day's run that stops before its snapshot commits leaves the last snapshot whole, in place and in the manifest; the next run replaces it", async () => {
    const days = await startDays();
    try {
      const first = days.goTo(0);
      expect((await runDay(days, first)).code).toBe(0);
      const kept = await serviceSummaries(days.service.emulator);
      const keptFiles = await listDataFiles(join(days.workspace.dir, "billing/parquet"));

      // Day 1: the day's quota is spent but for one request, so the second domain's query is refused.
      const second = days.goTo(1);
      const token = await fetchToken(days.service.emulator);
      for (let spent = 0; spent < QUOTA - 1; spent++) {
        const answer = await post(
          days.service.emulator,
          "/v1/query",
          { domain: "alpha.example", time_range: "now-1d/d" },
          token,
        );
        expect(answer.status).toBe(200);
      }
      const stopped = await runDay(days, second);
      expect(stopped.code).toBe(75);
      expect(await listDataFiles(join(days.workspace.dir, "billing/parquet"))).toEqual(keptFiles);
      for (const sink of ["parquet", "ndjson"]) {
        const manifest = await readManifest(join(days.workspace.dir, "billing", sink));
        expect(manifest.complete).toBe(false);
        expect(manifest.totals.rows).toBe(DOMAINS.length);
        expect(manifest.files.map((file) => file.path)).toEqual(
          await listDataFiles(join(days.workspace.dir, "billing", sink)),
        );
      }
      await expectOutputOf(days, first, kept);

      const third = days.goTo(2);
      const replaced = await runDay(days, third);
      expect(replaced.stderr).toBe("");
      expect(replaced.code).toBe(0);
      await checkCompleteExport(join(days.workspace.dir, "billing/parquet"), DOMAINS.length);
      await expectOutputOf(days, third, await serviceSummaries(days.service.emulator));
    } finally {
      await days.close();
    }
  });

  it("the same holds for the deprecated v1 logs (now-3h/h, run hourly): the output is the latest window's logs, each once", async () => {
    const days = await startDays();
    try {
      const out = join(days.workspace.dir, "logs-v1");
      const file = await days.workspace.write(
        "logs-v1.yaml",
        `name: rolling-logs-v1
${REMOTE_SERVICE_YAML}
source:
  kind: logs
  api: v1
  application: atr
  app_type: ec2
  domain: [bravo.example]
  window: { start: now-3h/h }
  strategy: scroll
sinks:
  - format: parquet
    to: ${out}
`,
      );
      for (const hour of [0, 1, 2]) {
        const now = days.goTo(hour / 24);
        const result = await runCli(["run", file, "--now", now, "--log-level", "error"], { env: days.env });
        expect(result.code, `hour ${hour}: ${result.stderr}`).toBe(0);
        const hits = await collect(
          days.service.emulator.expectedHits("/v1/logs/scroll", {
            application: "atr",
            time_range: "now-3h/h",
            app_type: "ec2",
            domain: "bravo.example",
            size: 100,
          }),
        );
        expect(hits.length).toBeGreaterThan(0);
        const { files } = await checkCompleteExport(out, hits.length);
        const table = await readParquet(out, files);
        const rows = byId(table.rows);
        expect(rows.size, `hour ${hour}`).toBe(hits.length);
        for (const hit of hits) expect(rows.get(hit._id)).toEqual(parquetRowOf(hitRecord(hit), table.types));
      }
    } finally {
      await days.close();
    }
  });
});
