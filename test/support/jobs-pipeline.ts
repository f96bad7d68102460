// Small pipelines for the CLI tests: the sources of ec2 jobs by point in time and of ec2 logs by batch,
// hourly jobs slices into NDJSON with the service from the environment (the output-safety tests), and
// one as YAML text for what a run reports about itself.
import { REMOTE_SERVICE_YAML, SERVICE_FROM_ENV, writePipeline } from "./cli-harness.js";

export interface JobsPipelineOptions {
  name: string;
  hours: number;
  /** The sink's `to`; `${OUT}` by default. */
  to?: string;
  sink?: Record<string, unknown>;
  limits?: Record<string, unknown>;
}

export async function writeJobsPipeline(dir: string, options: JobsPipelineOptions): Promise<string> {
  const end = `2026-11-10T${String(options.hours).padStart(2, "0")}:00:00Z`;
  return writePipeline(dir, {
    name: options.name,
    service: SERVICE_FROM_ENV,
    source: jobsSource("2026-11-10T00:00:00Z", end, { page_size: 100 }),
    sinks: [
      {
        format: "ndjson",
        to: options.to ?? "${OUT}",
        path: "dt={date}/part-{slice}-{seq}.ndjson",
        ...options.sink,
      },
    ],
    ...(options.limits === undefined ? {} : { limits: options.limits }),
  });
}

/**
 * The `source` of a pipeline over ec2 jobs by point in time, in hourly slices from `start` to `end`;
 * `more` adds keys or overrides them (`page_size`, `fields`, `app_type`).
 */
export function jobsSource(
  start: string,
  end: string,
  more: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    kind: "jobs",
    application: "atr",
    app_type: ["ec2"],
    domain: ["*"],
    strategy: "pit",
    window: { start, end, slice: "1h" },
    ...more,
  };
}

/** The `source` of a pipeline over ec2 logs by batch export, in slices of `slice`. */
export function logsBatchSource(start: string, end: string, slice: string): Record<string, unknown> {
  return {
    kind: "logs",
    application: "atr",
    app_type: ["ec2"],
    domain: ["*"],
    strategy: "batch",
    window: { start, end, slice },
  };
}

/** The `source` of a pipeline over ec2 and kubernetes jobs by point in time, in hourly slices. */
export function jobsPitSource(start: string, end: string, pageSize: number): Record<string, unknown> {
  return jobsSource(start, end, { app_type: ["ec2", "kubernetes"], page_size: pageSize });
}

/** A jobs pipeline on 2026-03-10 as YAML text, for tests that look at what a run reports about itself (metrics, run report, logs). */
export interface JobsPipelineYamlOptions {
  name: string;
  out: string;
  /** The window's end on 2026-03-10 (its start is midnight); default 06:00. */
  endHour?: number;
  slice?: string;
  concurrency?: number;
  quotaReserve?: number;
  /** `limits.progress_interval`; the default when omitted. */
  progressInterval?: string;
}

export function jobsPipelineYaml(options: JobsPipelineYamlOptions): string {
  const end = String(options.endHour ?? 6).padStart(2, "0");
  return `name: ${options.name}
${REMOTE_SERVICE_YAML}
source:
  kind: jobs
  application: atr
  app_type: [ec2, kubernetes]
  domain: ["*"]
  window: { start: "2026-03-10T00:00:00Z", end: "2026-03-10T${end}:00:00Z", slice: ${options.slice ?? "1h"} }
  strategy: pit
  page_size: 50
sinks:
  - format: ndjson
    to: ${options.out}
    path: "part-{slice}-{seq}.ndjson"
limits: { concurrency: ${options.concurrency ?? 2}, quota_reserve: ${options.quotaReserve ?? 0}${options.progressInterval === undefined ? "" : `, progress_interval: ${options.progressInterval}`} }
`;
}

/**
 * Yesterday's kubernetes jobs over point in time in hourly slices, as YAML text with the given sinks
 * (the warehouse tests: `--start`/`--end` pick the window, the sinks what is written and pinned).
 */
export function kubernetesJobsYaml(name: string, sinks: string): string {
  return `name: ${name}
${REMOTE_SERVICE_YAML}
source:
  kind: jobs
  application: atr
  app_type: [kubernetes]
  domain: ["*"]
  window: { start: now-1d/d, end: now/d, slice: 1h }
  strategy: pit
sinks:
${sinks}`;
}
