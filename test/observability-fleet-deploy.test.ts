// deploy/ for a fleet on the quota ledger: its alert rules pass `promtool check rules` and their unit
// tests (each alert fires on synthetic series), and the fleet dashboard's panels (ledger remaining,
// reserved and spent per pipeline and priority, quota wait, concurrency, progress) query only metrics
// the exporter registers. docs/fleet.md links both.
import { spawnSync } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { createRunMetrics } from "../src/observability/run-metrics.js";
import { REPO_ROOT } from "./support/cli-harness.js";
import { requireBinary } from "./support/prometheus.js";
import { metricNamesIn, seriesNames } from "./support/metric-names.js";

const PROMETHEUS_DIR = join(REPO_ROOT, "deploy/prometheus");
const RULES = "fleet-rules.yml";
const RULE_TESTS = "fleet-rules.test.yml";
const DASHBOARD = join(REPO_ROOT, "deploy/grafana/mdq-export-fleet-dashboard.json");

/** promtool from the pretest's unpacked packages or PATH; requireBinary fails naming the package when absent. */
function promtool(args: readonly string[]): { status: number | null; output: string } {
  const binary = requireBinary(["promtool"], "prometheus");
  const result = spawnSync(binary, args, { cwd: PROMETHEUS_DIR, encoding: "utf8" });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

/** Every series name a run with a quota ledger registers, histogram series included. */
async function registeredNames(): Promise<Set<string>> {
  const metrics = createRunMetrics({ pipeline: "p", kind: "jobs" });
  metrics.observer.quotaReported(1);
  metrics.observer.concurrencyChanged?.(4);
  metrics.observer.quotaLedger?.({
    remaining: 1,
    reserved: 1,
    spent: 1,
    roundTrips: 1,
    waitSeconds: 0,
    priority: "high",
  });
  metrics.setOpenSlices(0);
  metrics.finish(0);
  return seriesNames(metrics);
}

describe("the fleet's alert rules", () => {
  it("pass promtool check rules", () => {
    const result = promtool(["check", "rules", RULES]);
    expect(result.output).toContain("SUCCESS: 4 rules found");
    expect(result.status).toBe(0);
  });

  it("pass their unit tests, in which every alert fires", async () => {
    const rules = parse(await readFile(join(PROMETHEUS_DIR, RULES), "utf8")) as {
      groups: { rules: { alert: string; expr: string }[] }[];
    };
    const tests = parse(await readFile(join(PROMETHEUS_DIR, RULE_TESTS), "utf8")) as {
      tests: { alert_rule_test: { alertname: string; exp_alerts: unknown[] }[] }[];
    };
    const firing = new Set(
      tests.tests.flatMap((test) =>
        test.alert_rule_test.filter((check) => check.exp_alerts.length > 0).map((check) => check.alertname),
      ),
    );
    expect([...firing].sort()).toEqual(
      rules.groups.flatMap((group) => group.rules.map((rule) => rule.alert)).sort(),
    );
    const result = promtool(["test", "rules", RULE_TESTS]);
    expect(result.output).toContain("SUCCESS");
    expect(result.status).toBe(0);
  });

  it("name only metrics the exporter registers", async () => {
    const rules = parse(await readFile(join(PROMETHEUS_DIR, RULES), "utf8")) as {
      groups: { rules: { expr: string }[] }[];
    };
    const names = await registeredNames();
    for (const rule of rules.groups.flatMap((group) => group.rules))
      for (const name of metricNamesIn(rule.expr)) expect(names, rule.expr).toContain(name);
  });
});

describe("the fleet dashboard", () => {
  it("shows the ledger, reserved and spent per pipeline and priority, quota wait, concurrency and progress, from registered metrics", async () => {
    const dashboard = JSON.parse(await readFile(DASHBOARD, "utf8")) as {
      __inputs: { name: string; pluginId: string }[];
      uid: string;
      panels: { title: string; targets: { expr: string }[] }[];
    };
    expect(dashboard.__inputs).toEqual([
      expect.objectContaining({ name: "DS_PROMETHEUS", pluginId: "prometheus" }),
    ]);
    expect(dashboard.uid).toBe("mdq-export-fleet");
    const names = await registeredNames();
    const exprs = dashboard.panels.flatMap((panel) => panel.targets.map((target) => target.expr));
    for (const expr of exprs) for (const name of metricNamesIn(expr)) expect(names, expr).toContain(name);
    const used = new Set(exprs.flatMap(metricNamesIn));
    for (const name of [
      "mdq_export_quota_ledger_remaining",
      "mdq_export_quota_ledger_reserved",
      "mdq_export_quota_ledger_spent",
      "mdq_export_quota_wait_seconds",
      "mdq_export_concurrency",
      "mdq_export_slices_planned",
      "mdq_export_quota_ledger_round_trips",
    ])
      expect(used).toContain(name);
    // Reserved and spent are broken down by pipeline and priority.
    for (const name of ["mdq_export_quota_ledger_reserved", "mdq_export_quota_ledger_spent"])
      expect(exprs.find((expr) => expr.includes(name))).toContain("by (pipeline, priority)");
  });

  it("and the rules are linked from docs/fleet.md", async () => {
    const fleet = await readFile(join(REPO_ROOT, "docs/fleet.md"), "utf8");
    expect(fleet).toContain("../deploy/grafana/mdq-export-fleet-dashboard.json");
    expect(fleet).toContain("../deploy/prometheus/fleet-rules.yml");
  });
});
