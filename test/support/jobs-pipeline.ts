// The small v3 jobs pipeline the output-safety tests run: hourly slices of one day's first hours,
// point in time, NDJSON partitioned by date, the service from the environment.
import { SERVICE_FROM_ENV, writePipeline } from "./cli-harness.js";

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
    source: {
      kind: "jobs",
      application: "atr",
      app_type: ["ec2"],
      domain: ["*"],
      window: { start: "2026-11-10T00:00:00Z", end, slice: "1h" },
      strategy: "pit",
      page_size: 100,
    },
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
