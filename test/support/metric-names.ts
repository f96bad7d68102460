// The series names an exporter's registry exposes, and those an alert or panel expression names: what
// the deploy files (alert rules, dashboards) are held to.
import type { createRunMetrics } from "../../src/observability/run-metrics.js";

type RunMetrics = ReturnType<typeof createRunMetrics>;

/** Every series name in the run's registry, a histogram's `_bucket`, `_sum` and `_count` included. */
export async function seriesNames(metrics: RunMetrics): Promise<Set<string>> {
  const names = new Set<string>();
  for (const metric of await metrics.registry.getMetricsAsJSON()) {
    names.add(metric.name);
    if (String(metric.type) === "histogram")
      for (const suffix of ["_bucket", "_sum", "_count"]) names.add(`${metric.name}${suffix}`);
  }
  return names;
}

/** The exporter's metric names a PromQL expression uses. */
export function metricNamesIn(expr: string): string[] {
  return [...expr.matchAll(/\bmdq_export_\w+/g)].map((match) => match[0]);
}
