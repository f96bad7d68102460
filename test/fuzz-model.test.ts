// The fuzz's own judges, on hand-made records: the reference model's meaning of the transforms the
// generator writes, the rules that make a refusal an answer, and how an instant without a zone reads.
import { describe, expect, it } from "vitest";
import type { FuzzCase } from "./fuzz/fuzz-case.js";
import { applyTransforms, projectFields } from "./fuzz/reference-model.js";
import { refusalReasons } from "./fuzz/refusals.js";
import { normalise } from "./fuzz/view-compare.js";

const RECORD = {
  _id: "a",
  _index: "jobs-1",
  "@timestamp": "2026-03-11T10:20:00.000Z",
  job: { state: "abc", name: "nightly" },
  atr: { domain_name: "alpha.example" },
};
const RUN = {
  pipelineName: "p",
  sliceOf: () => ({ start: "2026-03-11T10:00:00.000Z", end: "2026-03-11T11:00:00.000Z" }),
};

const CASE: FuzzCase = {
  source: {
    kind: "logs",
    api: "v2",
    application: "atr",
    appType: ["ec2", "kubernetes"],
    scope: { domain: ["*"] },
    strategy: "auto",
    filter: undefined,
  },
  window: { startMinute: 600, minutes: 60, slice: "1h" },
  transforms: [],
  sinks: [
    {
      format: "parquet",
      gzip: false,
      columnNames: "snake_case",
      path: undefined,
      partitionField: undefined,
      maxRowsPerFile: undefined,
    },
  ],
  zone: "UTC",
  data: { awkward: {}, recordIds: "unique", density: 4 },
};
const LOG = {
  _id: "b",
  _index: "logs-1",
  "@timestamp": "2026-03-11T10:20:00Z",
  timestamp: "x",
  level: "INFO",
};

describe("the fuzz's reference model", () => {
  it("filter keeps a record only where its condition holds; not_equals holds without the field", () => {
    expect(applyTransforms(RECORD, [{ filter: { field: "job.state", equals: "abc" } }])).toBeDefined();
    expect(applyTransforms(RECORD, [{ filter: { field: "job.state", in: ["x"] } }])).toBeUndefined();
    expect(applyTransforms(RECORD, [{ filter: { field: "job.nope", not_equals: "abc" } }])).toBeDefined();
    expect(
      applyTransforms(RECORD, [{ filter: { not: { field: "job.name", exists: true } } }]),
    ).toBeUndefined();
  });

  it("redact hashes with SHA-256 hex and masks keeping the last characters", () => {
    const hashed = applyTransforms(RECORD, [{ redact: { fields: ["job.state"], method: "hash" } }]);
    expect(hashed?.["job"]).toMatchObject({
      state: "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
    });
    const masked = applyTransforms(RECORD, [
      { redact: { fields: ["job.name"], method: "mask", keep_last: 2 } },
    ]);
    expect(masked?.["job"]).toMatchObject({ name: "*****ly" });
  });

  it("add from run metadata gives the pipeline's name and the record's slice", () => {
    const added = applyTransforms(
      RECORD,
      [{ add: { n: { from: "pipeline_name" }, s: { from: "slice_start" }, e: { from: "slice_end" } } }],
      RUN,
    );
    expect(added).toMatchObject({ n: "p", s: "2026-03-11T10:00:00.000Z", e: "2026-03-11T11:00:00.000Z" });
  });

  it("source.fields keeps the listed fields, nested, with _id and _index", () => {
    expect(projectFields(RECORD, ["job.state"])).toEqual({
      job: { state: "abc" },
      _id: "a",
      _index: "jobs-1",
    });
  });

  it("an instant written without a zone is read as UTC", () => {
    expect(normalise("2026-11-27T10:00:00", "TIMESTAMP WITH TIME ZONE")).toBe(
      `instant ${Date.parse("2026-11-27T10:00:00Z")}`,
    );
  });
});

describe("when a refusal is an answer", () => {
  it("snake_case logs with a plain path are valid: their refusal is a failure", () => {
    expect(refusalReasons(CASE, [LOG])).toEqual([]);
  });

  it("a slice that crosses days with {date}, or a transform naming a field it does not receive, may be refused", () => {
    const crossing = {
      ...CASE,
      window: { ...CASE.window, slice: "7m" },
      sinks: [{ ...CASE.sinks[0]!, path: "dt={date}/{slice}-{seq}.{ext}" }],
    };
    expect(refusalReasons(crossing, [LOG])).toEqual(["slice 7m crosses days and the path has {date}"]);
    const dropped = {
      ...CASE,
      transforms: [{ select: { fields: ["level"] } }, { drop: { fields: ["timestamp"] } }],
    };
    expect(refusalReasons(dropped, [LOG])).toEqual([
      "transforms[1] names timestamp, which its stage does not receive",
    ]);
  });

  it("a v1 window (one slice) with {date} in the path may be refused", () => {
    const v1 = { ...CASE.source, api: "v1" as const, appType: undefined, strategy: "scroll" };
    const sink = { ...CASE.sinks[0]!, path: "dt={date}/{slice}-{seq}.{ext}" };
    expect(refusalReasons({ ...CASE, source: v1, sinks: [sink] }, [LOG])).toEqual([
      "a v1 window is one slice and the path has {date} or {hour}",
    ]);
  });

  it("a placeholder that names no column under the sink's naming may be refused", () => {
    const sink = { ...CASE.sinks[0]!, path: "l={Level}/{slice}-{seq}.{ext}", partitionField: "Level" };
    expect(refusalReasons({ ...CASE, sinks: [sink] }, [LOG])).toEqual([
      "{Level} names no column under snake_case after the transforms",
    ]);
    const named = { ...sink, path: "l={level}/{slice}-{seq}.{ext}", partitionField: "level" };
    expect(refusalReasons({ ...CASE, sinks: [named] }, [LOG])).toEqual([]);
  });
});
