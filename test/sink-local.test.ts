// The sink writing to disk, every format read back by an independent reader.
import { mkdtemp, readFile, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { DuckDBInstance } from "@duckdb/node-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RecordBatch, Column, Row, RunInfo, SliceContext } from "../src/core/contracts.js";
import { createSilentLogger } from "../src/logger.js";
import { createSink } from "../src/sinks/sink.js";
import { defaultComponents, formatOf } from "../src/components/environment.js";
import { createSinkConfigSchema } from "../src/sinks/sink-config.js";
import { openOutputStore } from "../src/sinks/open-output-store.js";
import { hitsToRows } from "../src/kinds/source-spec.js";
import type { Format } from "../src/formats/format.js";
import { hourSliceContext } from "./support/slice-context.js";

const components = defaultComponents();
const sinkSchema = createSinkConfigSchema(components);

const run: RunInfo = {
  pipelineName: "local",
  runId: "run-local",
  startedAt: new Date("2026-11-21T06:00:00Z"),
};
const columns: Column[] = [
  { name: "job.id", type: "string" },
  { name: "job.state", type: "string" },
  { name: "atr.domain_name", type: "string" },
  { name: "elapsed_s", type: "double" },
  { name: "attempts", type: "int32" },
  { name: "@timestamp", type: "timestamp" },
];
const states = ["FAILED", "SUCCEEDED", 'we"ird\nstate', "ünïcødé \u{1F600}"];
const domains = ["payments", "billing", "../escape", null];

function jobRows(count: number, offset = 0): Row[] {
  return Array.from({ length: count }, (_, k) => {
    const i = k + offset;
    return {
      "job.id": `job-${i}`,
      "job.state": states[i % states.length],
      "atr.domain_name": domains[i % domains.length],
      elapsed_s: i % 7 === 0 ? null : i / 4,
      attempts: i % 5,
      "@timestamp": new Date(Date.UTC(2026, 10, 21, 0, 0, i % 3600)).toISOString(),
    };
  });
}

function context(signal?: AbortSignal, sliceStart = "2026-11-21T00:00:00Z"): SliceContext {
  return hourSliceContext(run, new Date(sliceStart), { signal });
}

async function* from(list: readonly (readonly Row[] | RecordBatch)[]): AsyncIterable<RecordBatch> {
  for (const item of list) yield "kind" in item ? item : { kind: "rows", rows: item };
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "mdq-sink-local-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function exportTo(to: string, yaml: Record<string, unknown>, input: readonly (readonly Row[])[]) {
  const config = sinkSchema.parse({ to, ...yaml });
  const store = await openOutputStore(config, { run }, components.destinations);
  const output = await createSink(config, {
    format: formatOf(components, config),
    store,
    columns,
    run,
    log: createSilentLogger(),
  })(from(input), context());
  await output.commit();
  return output;
}

async function allNames(root: string): Promise<string[]> {
  const names = await readdir(root, { recursive: true, withFileTypes: true });
  return names
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(root.length + 1))
    .sort();
}

async function duckRows(file: string): Promise<Record<string, unknown>[]> {
  const instance = await DuckDBInstance.create(":memory:");
  const connection = await instance.connect();
  const result = await connection.runAndReadAll(
    `select "job.id", "job.state", "atr.domain_name", elapsed_s, attempts, strftime("@timestamp", '%Y-%m-%dT%H:%M:%S.000Z') as ts from read_parquet('${file}')`,
  );
  const rows = result.getRowObjectsJS();
  connection.closeSync();
  instance.closeSync();
  return rows;
}

describe("sink to a local directory", () => {
  const input = [jobRows(3000), jobRows(2000, 3000)];
  const expected = input.flat();

  it("writes NDJSON that line parsing reads back equal to the input", async () => {
    const to = join(dir, "ndjson");
    await exportTo(to, { format: "ndjson" }, input);
    const text = await readFile(join(to, "20261121T000000Z-0000.ndjson"), "utf8");
    expect(
      text
        .trimEnd()
        .split("\n")
        .map((line) => JSON.parse(line) as unknown),
    ).toEqual(expected);
  });

  it("writes gzip NDJSON that gunzip reads back equal to the input", async () => {
    const to = join(dir, "ndjson-gz");
    await exportTo(to, { format: "ndjson", gzip: true }, input);
    const text = gunzipSync(await readFile(join(to, "20261121T000000Z-0000.ndjson.gz"))).toString("utf8");
    expect(
      text
        .trimEnd()
        .split("\n")
        .map((line) => JSON.parse(line) as unknown),
    ).toEqual(expected);
  });

  it("writes Parquet that DuckDB reads back equal to the input", async () => {
    const to = join(dir, "parquet");
    await exportTo(to, { format: "parquet", row_group_rows: 1000 }, input);
    const rows = await duckRows(join(to, "20261121T000000Z-0000.parquet"));
    expect(rows).toEqual(
      expected.map((row) => ({
        "job.id": row["job.id"],
        "job.state": row["job.state"],
        "atr.domain_name": row["atr.domain_name"],
        elapsed_s: row.elapsed_s,
        attempts: row.attempts,
        ts: row["@timestamp"],
      })),
    );
  });

  it("partitions by record values (Hive style) without escaping the root", async () => {
    const to = join(dir, "partitioned");
    await exportTo(
      to,
      { format: "ndjson", path: "dt={date}/domain={atr.domain_name}/part-{slice}-{seq}.{ext}" },
      input,
    );
    expect(await allNames(to)).toEqual([
      "dt=2026-11-21/domain=%2E.%2Fescape/part-20261121T000000Z-0000.ndjson",
      "dt=2026-11-21/domain=__HIVE_DEFAULT_PARTITION__/part-20261121T000000Z-0000.ndjson",
      "dt=2026-11-21/domain=billing/part-20261121T000000Z-0000.ndjson",
      "dt=2026-11-21/domain=payments/part-20261121T000000Z-0000.ndjson",
    ]);
    const billing = await readFile(
      join(to, "dt=2026-11-21/domain=billing/part-20261121T000000Z-0000.ndjson"),
      "utf8",
    );
    expect(billing.trimEnd().split("\n")).toHaveLength(1250);
  });

  it("rolls by rows and by bytes", async () => {
    const byRows = await exportTo(join(dir, "rows"), { format: "ndjson", max_rows_per_file: 1200 }, input);
    expect(byRows.files.map((file) => file.rows)).toEqual([1200, 1200, 1200, 1200, 200]);
    const byBytes = await exportTo(join(dir, "bytes"), { format: "ndjson", max_file_bytes: 100_000 }, [
      ...Array.from({ length: 50 }, (_, i) => jobRows(100, i * 100)),
    ]);
    expect(byBytes.files.length).toBeGreaterThan(3);
    for (const file of byBytes.files.slice(0, -1)) {
      expect(file.bytes).toBeGreaterThanOrEqual(100_000);
      expect(file.bytes).toBeLessThan(100_000 + 20_000);
      expect((await stat(join(dir, "bytes", file.path))).size).toBe(file.bytes);
    }
    expect(byBytes.files.reduce((sum, file) => sum + file.rows, 0)).toBe(5000);
  });

  it("hides files until commit, and a redone slice replaces its files under the same names", async () => {
    const to = join(dir, "redo");
    const config = sinkSchema.parse({ to, format: "parquet", max_rows_per_file: 2000 });
    const store = await openOutputStore(config, { run }, components.destinations);
    const sink = createSink(config, {
      format: formatOf(components, config),
      store,
      columns,
      run,
      log: createSilentLogger(),
    });
    const first = await sink(from(input), context());
    const staged = await readdir(to);
    expect(staged.every((name) => name.startsWith(".") && name.includes(".tmp-"))).toBe(true);
    expect(await store.list()).toEqual([]);
    await first.commit();
    const names = await allNames(to);
    expect(names).toEqual(first.files.map((file) => file.path));
    const again = await sink(from(input), context());
    await again.commit();
    expect(await allNames(to)).toEqual(names);
    expect(again.files.map((file) => file.sha256)).toEqual(first.files.map((file) => file.sha256));
  });
});

describe("a file whose trailer fails to be written", () => {
  it("leaves no temporary file: the sink removes what it was closing", async () => {
    const out = join(dir, "failed-close");
    const config = sinkSchema.parse({ to: out, format: "parquet", row_group_rows: 1000 });
    const store = await openOutputStore(config, { run }, components.destinations);
    // The Parquet format, but its footer cannot be written: a real encoder cannot be made to fail at
    // that moment on purpose.
    const parquet = formatOf(components, config);
    const failing: Format = {
      ...parquet,
      createEncoder: (...args) => ({
        ...parquet.createEncoder(...args),
        finish: () => Promise.reject(new Error("the footer could not be written")),
      }),
    };
    const hits = jobRows(10).map((row, i) => ({ _id: `j${i}`, _index: "jobs", _source: row }));
    const batch = hitsToRows(
      hits,
      hits.map((hit) => Buffer.from(JSON.stringify(hit._source))),
    );
    const sink = createSink(config, {
      format: failing,
      store,
      columns,
      run,
      log: createSilentLogger(),
    });
    await expect(sink(from([batch]), context())).rejects.toThrow(/^encoding .*\.parquet/);
    const left = await readdir(out, { recursive: true }).catch(() => []);
    expect(left.filter((name) => String(name).includes(".tmp-"))).toEqual([]);
  });
});
