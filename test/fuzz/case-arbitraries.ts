// The fast-check arbitraries of fuzz cases: pipelines built from the documented options (docs/
// pipelines.md, docs/sinks.md; docs/warehouse.md "How we test the view" lists those left out, and
// why), weighted so that most cases export: a refused case tests only the refusal.
import fc from "fast-check";
import type { Arbitrary } from "fast-check";
import { KIND_FACTS } from "./fuzz-case.js";
import { transformArb } from "./transform-arbitraries.js";
import type {
  DataCase,
  FuzzCase,
  Kind,
  SinkCase,
  SourceCase,
  TransformCase,
  WindowCase,
} from "./fuzz-case.js";

const EC2_K8S = fc.constantFrom<string | readonly string[]>(
  "ec2",
  "kubernetes",
  ["ec2"],
  ["ec2", "kubernetes"],
);
const DOMAINS = fc.constantFrom(["*"], ["alpha.example"], ["alpha.example", "bravo.example"]);

/**
 * `source.fields`: the kind's fields the transforms and templates name (less one of the others at
 * times), so that `_source` loses the kind's remaining fields and the transforms still find theirs.
 */
function sourceFieldsArb(kind: Kind): Arbitrary<string[]> {
  const facts = KIND_FACTS[kind];
  return fc
    .option(fc.constantFrom(...facts.others), { freq: 3 })
    .map((left) => [...facts.keywords, ...facts.others, "@timestamp"].filter((name) => name !== left));
}

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
          .record({
            filter: fc.option(fc.constant(KIND_FACTS[source.kind].filter), { freq: 4 }),
            fields: fc.option(sourceFieldsArb(source.kind), { freq: 5 }),
          })
          .map(({ filter, fields }): SourceCase => ({
            ...source,
            filter: filter ?? undefined,
            ...(fields === null ? {} : { fields }),
          })),
  );

const SLICES = ["auto", "15m", "30m", "1h", "2h", "1d", "20m", "7m", "90m", "45m"];

const windowArb: Arbitrary<WindowCase> = fc.record({
  word: fc
    .option(
      fc.constantFrom("last-hour", "last-hour", "today", "yesterday") as Arbitrary<WindowCase["word"]>,
      { freq: 8 },
    )
    .map((word) => word ?? undefined),
  startMinute: fc.integer({ min: 0, max: 252 }).map((n) => n * 5),
  minutes: fc.constantFrom(20, 45, 60, 90, 150, 240),
  // The slices that suit every path weigh more: a slice a template cannot take is refused.
  slice: fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom("auto", "15m", "30m", "1h", "20m") },
    { weight: 1, arbitrary: fc.constantFrom(...SLICES) },
  ),
});

/**
 * A sink. A path's record placeholder names the output column (docs/sinks.md): mostly spelled as
 * the sink's naming writes it, at times as the other naming would (a documented refusal).
 */
function sinkArb(kind: Kind, api: SourceCase["api"]): Arbitrary<SinkCase> {
  return fc
    .record({
      format: fc.constantFrom<"parquet" | "ndjson">("parquet", "ndjson"),
      gzip: fc.boolean(),
      columnNames: fc.constantFrom<"as_is" | "snake_case">("as_is", "snake_case"),
      // A v1 window is one slice, so its paths take no {date} or {hour}: those would only be refused.
      layout:
        api === "v1"
          ? fc.constantFrom("default", "default", "field")
          : fc.constantFrom("default", "default", "dt-hour", "dt", "field", "dt-field"),
      field: fc.constantFrom(...KIND_FACTS[kind].keywords),
      spelledAsWritten: fc.oneof(
        { weight: 5, arbitrary: fc.constant(true) },
        { weight: 1, arbitrary: fc.constant(false) },
      ),
      maxRowsPerFile: fc.option(fc.constantFrom(7, 50), { freq: 4 }),
    })
    .map(({ layout, field, spelledAsWritten, maxRowsPerFile, ...sink }) => {
      const snake = (sink.columnNames === "snake_case") === spelledAsWritten;
      const partitionField = snake ? field.replaceAll(".", "_") : field;
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

export const dataArb: Arbitrary<DataCase> = fc.record({
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

/** Zones of the exporter's own process: mostly none set (UTC), some far from it. */
const EXPORTER_ZONES = fc.option(fc.constantFrom("America/Los_Angeles", "Asia/Kolkata", "Pacific/Chatham"), {
  freq: 3,
});

/** A whole case; a long window word carries few records per hour, to keep the case fast. */
export const fuzzCaseArb: Arbitrary<FuzzCase> = sourceArb.chain((source) =>
  fc
    .record({
      source: fc.constant(source),
      // A window word is the whole window, sliced by the planner (`window: yesterday`).
      window: windowArb.map((window) =>
        source.api === "v1" || window.word === undefined
          ? { ...window, word: undefined }
          : { ...window, slice: "auto" },
      ),
      // Mostly none or one transform: each more may name a field an earlier one removed (refused).
      transforms: fc.oneof(
        { weight: 2, arbitrary: fc.constant<TransformCase[]>([]) },
        { weight: 3, arbitrary: fc.array(transformArb(source.kind), { minLength: 1, maxLength: 1 }) },
        { weight: 1, arbitrary: fc.array(transformArb(source.kind), { minLength: 2, maxLength: 3 }) },
      ),
      sinks: fc.array(sinkArb(source.kind, source.api), { minLength: 1, maxLength: 2 }),
      zone: fc.constantFrom(...ZONES),
      exporterZone: EXPORTER_ZONES.map((zone) => zone ?? undefined),
      data: dataArb,
    })
    .map((fuzzCase): FuzzCase => {
      const long = fuzzCase.window.word === "today" || fuzzCase.window.word === "yesterday";
      const data = long ? { ...fuzzCase.data, density: 2 } : fuzzCase.data;
      // A slice's bounds are the model's only where the slice is: not `auto`, not a v1 window.
      const sliceKnown = fuzzCase.window.slice !== "auto" && source.api !== "v1";
      const transforms = fuzzCase.transforms.map((transform): TransformCase => {
        if (sliceKnown || !("add" in transform) || !("added_meta" in transform.add)) return transform;
        return { add: { added_meta: { from: "pipeline_name" } } };
      });
      return { ...fuzzCase, data, transforms };
    }),
);
