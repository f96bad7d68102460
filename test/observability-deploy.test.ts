// deploy/ for monitoring: the alert rules pass `promtool check rules` and their unit tests (which fire
// "no success in 26 h" and "run failed" on synthetic series); the PrometheusRule carries the same
// groups; the Grafana dashboard and the rules name only metrics the exporter has.
import { spawnSync } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { createRunMetrics } from "../src/observability/run-metrics.js";
import { REPO_ROOT } from "./support/cli-harness.js";
import { requireBinary } from "./support/prometheus.js";
import { metricNamesIn, seriesNames } from "./support/metric-names.js";

const RULES = join(REPO_ROOT, "deploy/prometheus/alerts.yaml");

function promtool(args: readonly string[]): { status: number | null; output: string } {
  const binary = requireBinary(["promtool"], "prometheus");
  const result = spawnSync(binary, args, { cwd: join(REPO_ROOT, "deploy/prometheus"), encoding: "utf8" });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

/** Every metric name the exporter can expose, histogram series included. */
async function exportedNames(): Promise<Set<string>> {
  const metrics = createRunMetrics({ pipeline: "p", kind: "jobs" });
  metrics.observer.quotaReported(1);
  metrics.finish(0);
  return seriesNames(metrics);
}

describe("alert rules", () => {
  it("pass promtool check rules", () => {
    const result = promtool(["check", "rules", RULES]);
    expect(result.output).toContain("SUCCESS: 5 rules found");
    expect(result.status).toBe(0);
  });

  it("pass their unit tests, which fire no-success-in-26h and run-failed", async () => {
    const tests = parse(await readFile(join(REPO_ROOT, "deploy/prometheus/alerts.test.yaml"), "utf8")) as {
      tests: { alert_rule_test: { alertname: string; exp_alerts: unknown[] }[] }[];
    };
    const firing = tests.tests.flatMap((test) =>
      test.alert_rule_test.filter((check) => check.exp_alerts.length > 0).map((check) => check.alertname),
    );
    expect(firing).toEqual(expect.arrayContaining(["MdqExportNoRecentSuccess", "MdqExportRunFailed"]));
    const result = promtool(["test", "rules", "alerts.test.yaml"]);
    expect(result.output).toContain("SUCCESS");
    expect(result.status).toBe(0);
  });

  it("the PrometheusRule holds the same groups, and every rule names metrics the exporter has", async () => {
    const plain = parse(await readFile(RULES, "utf8")) as { groups: { rules: { expr: string }[] }[] };
    const resource = parse(
      await readFile(join(REPO_ROOT, "deploy/kubernetes/prometheus-operator/prometheus-rule.yaml"), "utf8"),
    ) as {
      apiVersion: string;
      kind: string;
      spec: unknown;
    };
    expect(resource).toMatchObject({ apiVersion: "monitoring.coreos.com/v1", kind: "PrometheusRule" });
    expect(resource.spec).toEqual({ groups: plain.groups });
    const names = await exportedNames();
    for (const rule of plain.groups.flatMap((group) => group.rules))
      for (const name of metricNamesIn(rule.expr)) expect(names, rule.expr).toContain(name);
  });
});

describe("Grafana dashboard", () => {
  it("is importable JSON on a Prometheus data source input, querying only metrics the exporter has", async () => {
    const dashboard = JSON.parse(
      await readFile(join(REPO_ROOT, "deploy/grafana/mdq-export-dashboard.json"), "utf8"),
    ) as {
      __inputs: { name: string; pluginId: string }[];
      uid: string;
      panels: { title: string; targets: { expr: string }[] }[];
    };
    expect(dashboard.__inputs).toEqual([
      expect.objectContaining({ name: "DS_PROMETHEUS", pluginId: "prometheus" }),
    ]);
    expect(dashboard.uid).toBe("mdq-export");
    const names = await exportedNames();
    const used = new Set(
      dashboard.panels.flatMap((panel) => panel.targets.flatMap((target) => metricNamesIn(target.expr))),
    );
    for (const name of used) expect(names, name).toContain(name);
    for (const name of [
      "mdq_export_records_read_total",
      "mdq_export_records_written_total",
      "mdq_export_requests_total",
      "mdq_export_retries_total",
      "mdq_export_quota_remaining",
      "mdq_export_last_success_timestamp_seconds",
    ])
      expect(used).toContain(name);
  });
});
