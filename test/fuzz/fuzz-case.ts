// One case of the warehouse-view fuzz: a pipeline a user can write (kind, scope, strategy, fields,
// window and slice, transforms, sinks with path template, naming, format), the data the emulator
// serves (its awkward parts), the time zone of the reader and that of the exporter's own process.
// case-arbitraries.ts generates them.
import type { AwkwardData } from "../../src/emulator/awkward-data.js";

export type Kind = "jobs" | "tickets" | "workloads" | "metrics" | "logs";

export interface SourceCase {
  kind: Kind;
  api: "v1" | "v2" | "v3";
  application: string;
  /** A string or a list, as the pipeline writes it; omitted for v1 logs when undefined. */
  appType: string | readonly string[] | undefined;
  /** domain, or for serverless logs log_group/tenant/stage. */
  scope: Readonly<Record<string, readonly string[]>>;
  strategy: string;
  /** One term filter of the kind, or none. */
  filter: Record<string, unknown> | undefined;
  /** `source.fields`: the fields `_source` is restricted to; all when undefined. */
  fields?: readonly string[] | undefined;
}

export interface WindowCase {
  /** A window word instead of start and end (v2, v3): resolved against the run's --now. */
  word?: "yesterday" | "today" | "last-hour" | undefined;
  /** Minutes after 2026-03-11T00:00Z (v2, v3); for v1 the hours back of `now-<n>h/h`. */
  startMinute: number;
  minutes: number;
  slice: string;
}

export type TransformCase =
  | { flatten: { separator: "." | "_" } }
  | { rename: Record<string, string> }
  | { drop: { fields: string[] } }
  | { select: { fields: string[] } }
  | { add: Record<string, { value: string | number | boolean | null } | { from: AddFrom }> }
  | { redact: { fields: string[]; method: "hash" | "mask"; keep_last?: number } }
  | { filter: FilterCondition };

/** Run metadata `add` takes whose value the model knows (export_time and run_id it does not). */
export type AddFrom = "pipeline_name" | "slice_start" | "slice_end";

/** The `filter` conditions the model knows: one field and one comparison, or `not` of one. */
export type FilterCondition =
  | { field: string; equals: string }
  | { field: string; not_equals: string }
  | { field: string; in: string[] }
  | { field: string; exists: boolean }
  | { not: FilterCondition };

export interface SinkCase {
  format: "parquet" | "ndjson";
  gzip: boolean;
  columnNames: "as_is" | "snake_case";
  /** The path template; undefined for the default. */
  path: string | undefined;
  /** The record field a `key={field}` placeholder names, as written in the template. */
  partitionField: string | undefined;
  maxRowsPerFile: number | undefined;
}

export interface DataCase {
  awkward: AwkwardData;
  recordIds: "unique" | "per_index";
  density: number;
}

export interface FuzzCase {
  source: SourceCase;
  window: WindowCase;
  transforms: TransformCase[];
  sinks: SinkCase[];
  zone: string;
  /** The exporter process's TZ during the run (UTC when undefined): it must change nothing. */
  exporterZone?: string | undefined;
  data: DataCase;
}

export interface KindFacts {
  /** Keyword fields whose values are plain text: partition keys, filters, renames. */
  keywords: readonly string[];
  /** A filter whose field is one of the kind's. */
  filter: Record<string, unknown>;
  /** Fields a transform may drop or rename. */
  others: readonly string[];
  /** A keyword field every record has, and values of it the data holds, for the `filter` transform. */
  filterField: string;
  values: readonly string[];
}

export const KIND_FACTS: Readonly<Record<Kind, KindFacts>> = {
  jobs: {
    keywords: ["atr.domain_name", "job.state", "ticket.type", "atr.infra_type"],
    filter: { term: { "job.state": "DONE" } },
    filterField: "job.state",
    values: ["DONE", "FAILED"],
    others: ["job.execution_time.elapsed", "workflow.id", "job.name", "ticket.number"],
  },
  tickets: {
    keywords: ["ticket.type", "ticket.state", "atr.domain_name"],
    filter: { term: { "ticket.type": "INCIDENT" } },
    filterField: "ticket.type",
    values: ["INCIDENT", "SR_TASK"],
    others: ["ticket.priority", "ticket.description", "ticket.resolved", "ticket.created_on"],
  },
  workloads: {
    keywords: ["workload.state", "atr.domain_name", "ticket.type"],
    filter: { term: { "workload.state": "DONE" } },
    filterField: "workload.state",
    values: ["DONE", "FAILED"],
    others: ["workload.trigger", "workflow.name", "workload.execution_time.elapsed"],
  },
  metrics: {
    keywords: ["metricset.name", "atr.domain_name", "cloud.provider"],
    filter: { term: { "metricset.name": "cpu" } },
    filterField: "metricset.name",
    values: ["cpu", "memory"],
    others: ["system.cpu.total.pct", "host.hostname", "agent.version"],
  },
  logs: {
    keywords: ["level"],
    filter: { term: { level: "INFO" } },
    filterField: "level",
    values: ["INFO", "ERROR"],
    others: ["message", "response.status_code", "request.method", "timestamp"],
  },
};
