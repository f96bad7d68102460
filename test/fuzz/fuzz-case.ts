// One generated case of the warehouse-view fuzz: a pipeline a user can write (kind, scope, strategy,
// window and slice, transforms, sinks with path template, naming, format), the data the emulator
// serves (its awkward parts) and the time zone of the reader; and the fast-check arbitrary of cases.
import fc from "fast-check";
import type { Arbitrary } from "fast-check";
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
}

export interface WindowCase {
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
  | { add: Record<string, { value: string | number | boolean | null }> };

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
  data: DataCase;
}

interface KindFacts {
  /** Keyword fields whose values are plain text: partition keys, filters, renames. */
  keywords: readonly string[];
  /** A filter whose field is one of the kind's. */
  filter: Record<string, unknown>;
  /** Fields a transform may drop or rename. */
  others: readonly string[];
}

export const KIND_FACTS: Readonly<Record<Kind, KindFacts>> = {
  jobs: {
    keywords: ["atr.domain_name", "job.state", "ticket.type", "atr.infra_type"],
    filter: { term: { "job.state": "DONE" } },
    others: ["job.execution_time.elapsed", "workflow.id", "job.name", "ticket.number"],
  },
  tickets: {
    keywords: ["ticket.type", "ticket.state", "atr.domain_name"],
    filter: { term: { "ticket.type": "INCIDENT" } },
    others: ["ticket.priority", "ticket.description", "ticket.resolved", "ticket.created_on"],
  },
  workloads: {
    keywords: ["workload.state", "atr.domain_name", "ticket.type"],
    filter: { term: { "workload.state": "DONE" } },
    others: ["workload.trigger", "workflow.name", "workload.execution_time.elapsed"],
  },
  metrics: {
    keywords: ["metricset.name", "atr.domain_name", "cloud.provider"],
    filter: { term: { "metricset.name": "cpu" } },
    others: ["system.cpu.total.pct", "host.hostname", "agent.version"],
  },
  logs: {
    keywords: ["level"],
    filter: { term: { level: "INFO" } },
    others: ["message", "response.status_code", "request.method", "timestamp"],
  },
};

const EC2_K8S = fc.constantFrom<string | readonly string[]>(
  "ec2",
  "kubernetes",
  ["ec2"],
  ["ec2", "kubernetes"],
);
const DOMAINS = fc.constantFrom(["*"], ["alpha.example"], ["alpha.example", "bravo.example"]);

const sourceArb: Arbitrary<SourceCase> = fc
  .oneof(
    fc.record({
      kind: fc.constantFrom<Kind>("jobs", "tickets"),
      api: fc.constant("v3" as const),
      application: fc.constant("atr"),
      appType: EC2_K8S,
      scope: DOMAINS.map((domain) => ({ domain })),
      strategy: fc.constantFrom("auto", "pit"),
      filter: fc.constant(undefined),
    }),
    fc.record({
      kind: fc.constant<Kind>("metrics"),
      api: fc.constant("v3" as const),
      application: fc.constantFrom("atr", "klewer", "quasar"),
      appType: EC2_K8S,
      scope: DOMAINS.map((domain) => ({ domain })),
      strategy: fc.constantFrom("auto", "scroll"),
      filter: fc.constant(undefined),
    }),
    fc.record({
      kind: fc.constant<Kind>("workloads"),
      api: fc.constant("v2" as const),
      application: fc.constant("atr"),
      appType: EC2_K8S,
      scope: DOMAINS.map((domain) => ({ domain })),
      strategy: fc.constantFrom("auto", "scroll", "batch"),
      filter: fc.constant(undefined),
    }),
    fc.record({
      kind: fc.constant<Kind>("logs"),
      api: fc.constant("v2" as const),
      application: fc.constantFrom("atr", "klewer", "quasar"),
      appType: EC2_K8S,
      scope: DOMAINS.map((domain) => ({ domain })),
      strategy: fc.constantFrom("auto", "scroll", "batch"),
      filter: fc.constant(undefined),
    }),
    fc.record({
      kind: fc.constant<Kind>("logs"),
      api: fc.constant("v2" as const),
      application: fc.constant("eventops"),
      appType: fc.constant("serverless"),
      scope: fc.constant({ log_group: ["*"], tenant: ["acme"], stage: ["*"] }),
      strategy: fc.constantFrom("auto", "scroll", "batch"),
      filter: fc.constant(undefined),
    }),
    fc.record({
      kind: fc.constant<Kind>("logs"),
      api: fc.constant("v1" as const),
      application: fc.constant("atr"),
      appType: fc.constantFrom<string | undefined>(undefined, "ec2", "caas"),
      scope: fc.constant({ domain: ["alpha.example"] }),
      strategy: fc.constantFrom("scroll", "batch"),
      filter: fc.constant(undefined),
    }),
  )
  .chain((source: SourceCase): Arbitrary<SourceCase> =>
    source.api === "v1"
      ? fc.constant<SourceCase>(source)
      : fc
          .option(fc.constant(KIND_FACTS[source.kind].filter), { freq: 4 })
          .map((filter): SourceCase => ({ ...source, filter: filter ?? undefined })),
  );

const SLICES = ["auto", "15m", "30m", "1h", "2h", "1d", "20m", "7m", "90m", "45m"];

const windowArb: Arbitrary<WindowCase> = fc.record({
  startMinute: fc.integer({ min: 0, max: 252 }).map((n) => n * 5),
  minutes: fc.constantFrom(20, 45, 60, 90, 150, 240),
  slice: fc.constantFrom(...SLICES),
});

function transformArb(kind: Kind): Arbitrary<TransformCase> {
  const facts = KIND_FACTS[kind];
  const field = fc.constantFrom(...facts.others, ...facts.keywords);
  return fc.oneof(
    fc.constantFrom<"." | "_">(".", "_").map((separator) => ({ flatten: { separator } })),
    fc
      .tuple(field, fc.integer({ min: 1, max: 9 }))
      .map(([from, n]) => ({ rename: { [from]: `renamed_${n}` } })),
    field.map((name) => ({ drop: { fields: [name] } })),
    fc
      .subarray([...facts.keywords, ...facts.others, "@timestamp", "odd"], { minLength: 1, maxLength: 4 })
      .map((fields) => ({ select: { fields: ["_id", "_index", ...fields] } })),
    fc
      .constantFrom<string | number | boolean | null>("const", 42, true, null, "ünï")
      .map((value) => ({ add: { added_value: { value } } })),
  );
}

function sinkArb(kind: Kind): Arbitrary<SinkCase> {
  const keyword = fc.constantFrom(...KIND_FACTS[kind].keywords);
  const spelled = fc
    .tuple(keyword, fc.boolean())
    .map(([name, snake]) => (snake ? name.replaceAll(".", "_") : name));
  return fc
    .record({
      format: fc.constantFrom<"parquet" | "ndjson">("parquet", "ndjson"),
      gzip: fc.boolean(),
      columnNames: fc.constantFrom<"as_is" | "snake_case">("as_is", "snake_case"),
      layout: fc.constantFrom("default", "dt-hour", "dt", "field", "dt-field"),
      partitionField: spelled,
      maxRowsPerFile: fc.option(fc.constantFrom(7, 50), { freq: 4 }),
    })
    .map(({ layout, partitionField, maxRowsPerFile, ...sink }) => {
      const key = partitionField.split(/[._]/).at(-1) ?? "key";
      const paths: Record<string, string | undefined> = {
        default: undefined,
        "dt-hour": "dt={date}/hour={hour}/part-{slice}-{seq}.{ext}",
        dt: "dt={date}/part-{slice}-{seq}.{ext}",
        field: `${key}={${partitionField}}/part-{slice}-{seq}.{ext}`,
        "dt-field": `dt={date}/${key}={${partitionField}}/part-{slice}-{seq}.{ext}`,
      };
      return {
        ...sink,
        gzip: sink.format === "ndjson" && sink.gzip,
        path: paths[layout],
        partitionField: layout.includes("field") ? partitionField : undefined,
        maxRowsPerFile: maxRowsPerFile ?? undefined,
      };
    });
}

const dataArb: Arbitrary<DataCase> = fc.record({
  awkward: fc.record({
    int64: fc.boolean(),
    unicode: fc.boolean(),
    nesting: fc.boolean(),
    dates: fc.boolean(),
    repeatedKeys: fc.boolean(),
    hitKeys: fc.boolean(),
    conflicts: fc.boolean(),
  }),
  recordIds: fc.constantFrom<"unique" | "per_index">("unique", "per_index"),
  density: fc.constantFrom(2, 4, 8),
});

export const ZONES = [
  "UTC",
  "Europe/Berlin",
  "America/New_York",
  "Asia/Tokyo",
  "Asia/Kolkata",
  "Pacific/Chatham",
];

export const fuzzCaseArb: Arbitrary<FuzzCase> = sourceArb.chain((source) =>
  fc.record({
    source: fc.constant(source),
    window: windowArb,
    transforms: fc.array(transformArb(source.kind), { maxLength: 3 }),
    sinks: fc.array(sinkArb(source.kind), { minLength: 1, maxLength: 2 }),
    zone: fc.constantFrom(...ZONES),
    data: dataArb,
  }),
);
