// The command line as a user meets it: help on every command, unknown commands, `plan` (text and JSON)
// that exports nothing, `fields`, and `verify` on a good and on a damaged export.
import { appendFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, vi } from "vitest";
import type { RunningEmulator } from "../src/emulator/server.js";
import { checkCompleteExport } from "./support/export-checks.js";
import { listAllFiles, listDataFiles } from "./support/read-output.js";
import { emulatorEnv, REMOTE_SERVICE_YAML, runCli, spawnCli } from "./support/cli-harness.js";
import { useEmulator } from "./support/use-emulator.js";

const COMMANDS = [
  "run",
  "plan",
  "validate",
  "schema",
  "ddl",
  "fields",
  "verify",
  "merge-manifests",
  "quota",
  "emulator",
];

const it = useEmulator();

describe("help and commands", () => {
  it.each(COMMANDS)("%s --help exits 0 and prints its usage on stdout", async (command) => {
    for (const flag of ["--help", "-h"]) {
      const result = await runCli([command, flag]);
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(new RegExp(`^Usage: mdq-export ${command}\\b`));
      expect(result.stderr).toBe("");
    }
  });

  it("--help lists every command and the exit codes", async () => {
    const result = await runCli(["--help"]);
    expect(result.code).toBe(0);
    for (const command of COMMANDS) expect(result.stdout).toMatch(new RegExp(`^  ${command} `, "m"));
    expect(result.stdout).toContain("Exit codes: 0 done, 1 failed, 2 invalid pipeline or arguments, 75");
  });

  it("no command prints the usage on stderr and exits 2", async () => {
    const result = await runCli([]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain("Usage: mdq-export COMMAND");
  });

  it("an unknown command exits 2 naming it and the commands there are", async () => {
    const result = await runCli(["export", "pipelines/demo.yaml"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`unknown command "export"; one of ${COMMANDS.join(", ")}`);
    expect(result.stdout).toBe("");
  });

  it("an unknown flag exits 2", async () => {
    const result = await runCli(["run", "--frobnicate", "x.yaml"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--frobnicate");
  });

  it("importing main() runs nothing by itself (regression: the module ran a command line of the importer's argv)", async () => {
    const write = vi.spyOn(process.stdout, "write");
    const exitCode = process.exitCode;
    const argv = process.argv;
    process.argv = [argv[0] as string, "/not/the/cli.js", "--version"];
    try {
      // A query makes a fresh module instance, so its top level runs again under this argv.
      const specifier = "../src/cli/main.js?import-only";
      const module = (await import(/* @vite-ignore */ specifier)) as { main: unknown };
      expect(typeof module.main).toBe("function");
      expect(write).not.toHaveBeenCalled();
      expect(process.exitCode).toBe(exitCode);
    } finally {
      process.argv = argv;
      write.mockRestore();
    }
  });
});

const START = "2026-03-10T00:00:00Z";
const END = "2026-03-10T04:00:00Z";

function workloadsPipeline(out: string): string {
  return `name: e2e-cli-workloads
${REMOTE_SERVICE_YAML}
source:
  kind: workloads
  application: atr
  app_type: [ec2, kubernetes]
  domain: ["*"]
  window: { start: "${START}", end: "${END}", slice: 1h }
  strategy: auto
  page_size: 40
sinks:
  - format: parquet
    to: ${out}
`;
}

/** What the service holds per hour of the window, over both app types. */
function expectedPerHour(emulator: RunningEmulator): number[] {
  return [0, 1, 2, 3].map((hour) =>
    ["ec2", "kubernetes"].reduce((sum, appType) => {
      const start = new Date(Date.parse(START) + hour * 3_600_000);
      return (
        sum +
        emulator.expectedCount("workloads", {
          application: "atr",
          app_type: appType,
          domain: ["*"],
          start_time: start.toISOString(),
          end_time: new Date(start.getTime() + 3_600_000).toISOString(),
        })
      );
    }, 0),
  );
}

describe("plan", () => {
  it("prints every slice with its retrieval and the records the probe counted, asks only mappings and one probe per app type, writes nothing", async ({
    service,
    workspace,
  }) => {
    const { emulator } = service;
    const out = join(workspace.dir, "plan-out");
    const file = await workspace.write("plan.yaml", workloadsPipeline(out));
    const before = emulator.requestCounts();
    const filesBefore = await listAllFiles(workspace.dir);
    const result = await runCli(["plan", file], { env: emulatorEnv(emulator) });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const perHour = expectedPerHour(emulator);
    for (const [hour, count] of perHour.entries()) {
      expect(result.stdout).toMatch(new RegExp(`20260310T0${hour}0000Z\\s+scroll\\s+${count}\\s+\\d+`));
    }
    expect(result.stdout).toContain(`slices: 4; expected records: ${perHour.reduce((a, b) => a + b, 0)}`);
    expect(result.stdout).toMatch(/requests: about \d+ \(\+2 spent planning\)/);
    const after = emulator.requestCounts();
    const spent = Object.fromEntries(
      Object.entries(after)
        .map(([path, count]) => [path, count - (before[path] ?? 0)])
        .filter(([, count]) => count !== 0),
    );
    expect(Object.keys(spent).sort()).toEqual([
      "/oauth2/token",
      "/v2/workloads/aggs",
      "/v3/workloads/mappings",
    ]);
    expect(spent["/v2/workloads/aggs"]).toBe(2);
    expect(await listAllFiles(workspace.dir)).toEqual(filesBefore);
  });

  it("--json prints a plan that parses, with slices, expected records and columns", async ({
    service,
    workspace,
  }) => {
    const { emulator } = service;
    const file = await workspace.write(
      "plan-json.yaml",
      workloadsPipeline(join(workspace.dir, "plan-json-out")),
    );
    const result = await runCli(["plan", file, "--json"], { env: emulatorEnv(emulator) });
    expect(result.code).toBe(0);
    const plan = JSON.parse(result.stdout) as {
      pipeline: string;
      window: { start: string; end: string };
      slices: { id: string; retrieval: string; expected: number; requests: number }[];
      expected_records: number;
      estimated_requests: number;
      columns: { name: string; type: string }[];
    };
    expect(plan.pipeline).toBe("e2e-cli-workloads");
    expect(plan.window).toEqual({ start: "2026-03-10T00:00:00.000Z", end: "2026-03-10T04:00:00.000Z" });
    expect(plan.slices.map((slice) => slice.id)).toEqual([
      "20260310T000000Z",
      "20260310T010000Z",
      "20260310T020000Z",
      "20260310T030000Z",
    ]);
    expect(plan.slices.map((slice) => slice.expected)).toEqual(expectedPerHour(emulator));
    expect(plan.slices.every((slice) => slice.retrieval === "scroll" && slice.requests >= 2)).toBe(true);
    expect(plan.expected_records).toBe(expectedPerHour(emulator).reduce((a, b) => a + b, 0));
    expect(plan.columns).toContainEqual({ name: "workload.execution_time.elapsed", type: "double" });
  });
});

describe("plan over an output earlier runs wrote", () => {
  it("marks the slices they committed and counts only the rest; writes nothing", async ({
    service,
    workspace,
  }) => {
    const { emulator } = service;
    const out = join(workspace.dir, "plan-state-out");
    const file = await workspace.write("plan-state.yaml", workloadsPipeline(out));
    const env = emulatorEnv(emulator);
    const first = await runCli(["run", file, "--end", "2026-03-10T02:00:00Z"], { env });
    expect(first.code, first.stderr).toBe(0);
    const filesBefore = await listAllFiles(workspace.dir);

    const text = await runCli(["plan", file], { env });
    expect(text.code, text.stderr).toBe(0);
    const laterHours = expectedPerHour(emulator)
      .slice(2)
      .reduce((sum, count) => sum + count, 0);
    expect(text.stdout).toMatch(/20260310T000000Z\s+scroll\s+\d+\s+\d+ {2}committed\n/);
    expect(text.stdout).toMatch(/20260310T010000Z\s+scroll\s+\d+\s+\d+ {2}committed\n/);
    expect(text.stdout).toMatch(/20260310T020000Z\s+scroll\s+\d+\s+\d+\n/);
    expect(text.stdout).toContain(
      `slices: 4, 2 committed by earlier runs (state in ${out}; skipped unless --force); to run: 2, expected records: ${laterHours}`,
    );

    const json = await runCli(["plan", file, "--json"], { env });
    expect(json.code, json.stderr).toBe(0);
    const plan = JSON.parse(json.stdout) as {
      slices: { committed: boolean; requests: number }[];
      state: string;
      slices_to_run: number;
      expected_records: number;
      estimated_requests: number;
    };
    expect(plan.slices.map((slice) => slice.committed)).toEqual([true, true, false, false]);
    expect(plan.state).toBe(out);
    expect(plan.slices_to_run).toBe(2);
    expect(plan.expected_records).toBe(laterHours);
    expect(plan.estimated_requests).toBe(
      plan.slices.slice(2).reduce((sum, slice) => sum + slice.requests, 0),
    );

    // As run --force: every slice of the window is to run.
    const forced = await runCli(["plan", file, "--force"], { env });
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stdout).not.toContain("committed");
    expect(forced.stdout).toContain(
      `slices: 4; expected records: ${expectedPerHour(emulator).reduce((sum, count) => sum + count, 0)}`,
    );
    expect(await listAllFiles(workspace.dir)).toEqual(filesBefore);
  });

  it("says a run would stop when the output belongs to a changed pipeline, and exits 2", async ({
    service,
    workspace,
  }) => {
    const { emulator } = service;
    const out = join(workspace.dir, "plan-changed-out");
    const file = await workspace.write("plan-changed.yaml", workloadsPipeline(out));
    const env = emulatorEnv(emulator);
    const first = await runCli(["run", file, "--end", "2026-03-10T01:00:00Z"], { env });
    expect(first.code, first.stderr).toBe(0);
    const changed = await workspace.write(
      "plan-changed-2.yaml",
      workloadsPipeline(out).replace(
        "page_size: 40",
        "page_size: 40\n  fields: [workload.execution_time.elapsed]",
      ),
    );
    const filesBefore = await listAllFiles(workspace.dir);
    const result = await runCli(["plan", changed], { env });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stdout, result.stderr).toMatch(/20260310T000000Z\s+scroll/);
    expect(result.stdout).toContain("A run would stop: the pipeline changed since the output in");
    const run = await runCli(["run", changed], { env });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("the pipeline changed since the output in");
    expect(await listAllFiles(workspace.dir)).toEqual(filesBefore);
  });
});

describe("what a dependency prints on its own", () => {
  it("never reaches stdout: plan --json parses, and each message is one warning line on stderr", async ({
    service,
    workspace,
  }) => {
    const file = await workspace.write(
      "plan-noisy.yaml",
      workloadsPipeline(join(workspace.dir, "noisy-out")),
    );
    // A stand-in for a chatty dependency: when the command sends its first request, something it
    // loaded logs to the console and emits a process warning.
    const hook = `import dc from "node:diagnostics_channel";
let said = false;
dc.subscribe("undici:request:create", () => {
  if (said) return;
  said = true;
  console.log("noisy dependency: hello on stdout");
  console.info("noisy dependency: info on stdout");
  process.emitWarning("the old way\\nis deprecated", { type: "DeprecationWarning", code: "DEP9999" });
});`;
    const importHook = `--import=data:text/javascript;base64,${Buffer.from(hook).toString("base64")}`;
    const cli = spawnCli(["plan", file, "--json"], {
      ...emulatorEnv(service.emulator),
      NODE_OPTIONS: importHook,
    });
    expect(await cli.exited, cli.stderr()).toBe(0);
    const plan = JSON.parse(cli.stdout()) as { slices: unknown[] };
    expect(plan.slices).toHaveLength(4);
    const warnings = cli
      .stderr()
      .split("\n")
      .filter((line) => line.startsWith("warning: a dependency"));
    expect(warnings).toEqual([
      "warning: a dependency (console.log): noisy dependency: hello on stdout",
      "warning: a dependency (console.info): noisy dependency: info on stdout",
      "warning: a dependency (DeprecationWarning): the old way is deprecated",
    ]);
  });
});

describe("validate --now", () => {
  it("checks the window as a run at that instant loads it; a --now that is not an instant exits 2", async ({
    service,
    workspace,
  }) => {
    // Ends at now (the default), starts on 2026-01-01: valid for a run after that start only.
    const file = await workspace.write(
      "validate-now.yaml",
      workloadsPipeline(join(workspace.dir, "validate-now-out")).replace(
        `window: { start: "${START}", end: "${END}", slice: 1h }`,
        'window: { start: "2026-01-01T00:00:00Z", slice: 1h }',
      ),
    );
    const env = emulatorEnv(service.emulator);
    const today = await runCli(["validate", file], { env });
    expect(today.code, today.stderr).toBe(0);
    expect(today.stdout).toContain(`${file}: valid`);
    const before = await runCli(["validate", file, "--now", "2025-12-31T18:00:00Z"], { env });
    expect(before.code).toBe(2);
    expect(before.stderr).toContain("end must be after start");
    const refused = await runCli(["validate", file, "--now", "2026-01-01"], { env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--now "2026-01-01"');
  });
});

describe("fields", () => {
  it("--kind jobs lists the mapped fields with their search-engine and column types", async () => {
    const result = await runCli(["fields", "--kind", "jobs"]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const rows = result.stdout.trim().split("\n");
    expect(rows[0]).toMatch(/^field\s+type\s+column$/);
    const table = Object.fromEntries(
      rows.slice(1).map((line) => {
        const [name, type, column] = line.trim().split(/\s+/);
        return [name, `${type} ${column}`];
      }),
    );
    expect(table).toMatchObject({
      "job.id": "keyword string",
      "job.execution_time.elapsed": "float double",
      "@timestamp": "date timestamp",
      "job.name.text": "text string",
    });
    expect(Object.keys(table)).toHaveLength(18);
  });

  it("--json gives the same fields as JSON; an unknown kind exits 2", async () => {
    const json = await runCli(["fields", "--kind", "tickets", "--json"]);
    expect(json.code).toBe(0);
    const fields = JSON.parse(json.stdout) as { name: string; type: string; column_type: string }[];
    expect(fields).toContainEqual({ name: "ticket.resolved", type: "boolean", column_type: "boolean" });
    const bad = await runCli(["fields", "--kind", "orders"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--kind "orders" is not one of logs, workloads, jobs, tickets, metrics');
  });
});

describe("verify", () => {
  it("accepts a good export (exit 0) and reports a damaged file (exit 1)", async ({ service, workspace }) => {
    const { emulator } = service;
    const out = join(workspace.dir, "verify-out");
    const file = await workspace.write(
      "verify.yaml",
      workloadsPipeline(out).replace("format: parquet", "format: ndjson"),
    );
    const env = emulatorEnv(emulator);
    const run = await runCli(["run", file, "--log-level", "warn"], { env });
    expect(run.code, run.stderr).toBe(0);
    const rows = expectedPerHour(emulator).reduce((a, b) => a + b, 0);
    await checkCompleteExport(out, rows);

    const good = await runCli(["verify", file], { env });
    expect(good.code).toBe(0);
    expect(good.stdout).toContain(
      `ok — 4 files, ${rows.toLocaleString("en-US")} rows checked against the manifest`,
    );

    const [first] = await listDataFiles(out);
    await appendFile(join(out, first as string), '{"_id":"smuggled"}\n');
    const bad = await runCli(["verify", file], { env });
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain(first as string);
  });
});
