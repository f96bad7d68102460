// Regression tests for the wrong warehouse views the fuzz found once it generated more of the
// documented options (issue 29): window words and `slice: auto`, `source.fields`, the exporter's own
// time zone, batch exports that roll. Each is the smallest case of its class, judged as the fuzz
// judges it; `npm run fuzz -- --replay '<case>'` runs one alone.
import { DuckDBInstance } from "@duckdb/node-api";
import type { DuckDBConnection } from "@duckdb/node-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkCase } from "./fuzz/check-case.js";
import type { FuzzCase, SinkCase, SourceCase } from "./fuzz/fuzz-case.js";
import { describeCase } from "./fuzz/fuzz-run.js";

let instance: DuckDBInstance;
let connection: DuckDBConnection;
beforeAll(async () => {
  instance = await DuckDBInstance.create(":memory:");
  connection = await instance.connect();
});
afterAll(() => {
  connection.closeSync();
  instance.closeSync();
});

const JOBS: SourceCase = {
  kind: "jobs",
  api: "v3",
  application: "atr",
  appType: ["ec2"],
  scope: { domain: ["alpha.example"] },
  strategy: "auto",
  filter: undefined,
};
const PARQUET: SinkCase = {
  format: "parquet",
  gzip: false,
  columnNames: "as_is",
  path: undefined,
  partitionField: undefined,
  maxRowsPerFile: undefined,
};
const NDJSON: SinkCase = { ...PARQUET, format: "ndjson" };
const PLAIN: FuzzCase["data"] = { awkward: {}, recordIds: "unique", density: 4 };

function fuzzCase(overrides: Partial<FuzzCase>): FuzzCase {
  return {
    source: JOBS,
    window: { startMinute: 600, minutes: 60, slice: "1h" },
    transforms: [],
    sinks: [PARQUET],
    zone: "UTC",
    data: PLAIN,
    ...overrides,
  };
}

async function expectRightView(input: FuzzCase): Promise<void> {
  const verdict = await checkCase(input, connection);
  expect(verdict.problems, describeCase(input, verdict)).toEqual([]);
}

describe("the warehouse's view of generated pipelines (issue 29 fuzz findings, second round)", () => {
  it("a date without a zone is read as UTC into Parquet when the exporter's own TZ is not UTC", async () => {
    await expectRightView(
      fuzzCase({ exporterZone: "Pacific/Chatham", data: { ...PLAIN, awkward: { dates: true } } }),
    );
  });

  it("slice auto (the default) with dt={date}/hour={hour} puts every row in its own hour, or is refused", async () => {
    await expectRightView(
      fuzzCase({
        window: { startMinute: 600, minutes: 240, slice: "auto" },
        sinks: [{ ...PARQUET, path: "dt={date}/hour={hour}/part-{slice}-{seq}.{ext}" }],
        data: { ...PLAIN, density: 2 },
      }),
    );
  });

  it("a batch export rolled by max_rows_per_file under snake_case keeps every field", async () => {
    const workloads: SourceCase = { ...JOBS, kind: "workloads", api: "v2", strategy: "batch" };
    await expectRightView(
      fuzzCase({
        source: workloads,
        sinks: [{ ...PARQUET, columnNames: "snake_case", maxRowsPerFile: 7 }],
        data: { ...PLAIN, density: 20 },
      }),
    );
  });

  it("NDJSON of logs partitioned by a record field, from hits that repeat _source, _id or _index, is JSON line by line", async () => {
    const logs: SourceCase = { ...JOBS, kind: "logs", api: "v2", appType: "ec2", strategy: "scroll" };
    await expectRightView(
      fuzzCase({
        source: logs,
        window: { startMinute: 540, minutes: 60, slice: "1h" },
        sinks: [{ ...NDJSON, path: "level={level}/part-{slice}-{seq}.{ext}", partitionField: "level" }],
        data: { ...PLAIN, awkward: { hitKeys: true }, density: 8 },
      }),
    );
  });
});
