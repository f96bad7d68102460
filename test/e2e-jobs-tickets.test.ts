// End to end, jobs and tickets (v3, point in time and aggregations): real YAML through main() against
// an emulator on port 0; the output read back with DuckDB and line parsing equals the emulator's hits.
import { join } from "node:path";
import { describe, expect } from "vitest";
import { byId, checkCompleteExport, readAggregationRows } from "./support/export-checks.js";
import {
  bucketKey,
  countBy,
  groupBy,
  flattenRecord,
  hitRecord,
  HOUR_MS,
  parquetRowOf,
  sliceStartOf,
} from "./support/expected-rows.js";
import { collect, readNdjson, readParquet } from "./support/read-output.js";
import { runPipeline } from "./support/run-pipeline.js";
import { useEmulator } from "./support/use-emulator.js";

const START = "2026-03-10T00:00:00.000Z";
const END = "2026-03-10T06:00:00.000Z";

const it = useEmulator();

describe("jobs", () => {
  const fields = [
    "job.id",
    "job.name",
    "job.state",
    "job.execution_time.elapsed",
    "job.execution_time.start",
    "atr.domain_name",
    "@timestamp",
  ];

  it("point in time to Parquet (Hive partitions) and NDJSON with flatten, rename and add: every projected job once, values equal", async ({
    service,
    workspace,
  }) => {
    const { emulator } = service;
    const { out, stderr } = await runPipeline(
      service,
      workspace,
      "jobs-pit",
      (to) => `source:
  kind: jobs
  application: atr
  app_type: [ec2, kubernetes]
  domain: ["*"]
  window: { start: "${START}", end: "${END}", slice: 1h }
  strategy: pit
  page_size: 37
  fields: [${fields.map((field) => `"${field}"`).join(", ")}]
transforms:
  - flatten: {}
  - rename: { job.execution_time.elapsed: elapsed_s }
  - add:
      source_system: { value: mdq }
      slice_start: { from: slice_start }
sinks:
  - format: parquet
    to: ${to}/parquet
    path: "dt={date}/hour={hour}/part-{slice}-{seq}.parquet"
  - format: ndjson
    to: ${to}/ndjson
limits: { concurrency: 3 }
`,
    );
    expect(stderr).toBe("");
    const body = {
      application: "atr",
      app_type: ["ec2", "kubernetes"],
      domain: ["*"],
      start_time: START,
      end_time: END,
      size: 37,
      includes_eu: true,
      fields,
    };
    const hits = await collect(emulator.expectedHits("jobs", body));
    expect(hits.length).toBeGreaterThan(100);
    const expected = hits.map((hit): Record<string, unknown> => {
      const { "job.execution_time.elapsed": elapsed, ...rest } = flattenRecord(hitRecord(hit));
      return {
        ...rest,
        elapsed_s: elapsed,
        source_system: "mdq",
        slice_start: sliceStartOf(hit._source["@timestamp"], HOUR_MS),
      };
    });

    const ndjson = await checkCompleteExport(join(out, "ndjson"), hits.length);
    const lines = byId(await readNdjson(join(out, "ndjson"), ndjson.files));
    expect(lines.size).toBe(hits.length);
    for (const record of expected) expect(lines.get(String(record._id))).toEqual(record);

    const parquet = await checkCompleteExport(join(out, "parquet"), hits.length);
    expect(
      parquet.files.every((file) =>
        /^dt=2026-03-10\/hour=0[0-5]\/part-20260310T0[0-5]0000Z-0000\.parquet$/.test(file),
      ),
    ).toBe(true);
    expect(parquet.files).toHaveLength(6);
    const table = await readParquet(join(out, "parquet"), parquet.files);
    expect(table.types).toMatchObject({
      _id: "VARCHAR",
      "job.state": "VARCHAR",
      elapsed_s: "DOUBLE",
      "@timestamp": "TIMESTAMP",
      source_system: "VARCHAR",
    });
    expect(Object.keys(table.types)).not.toContain("job.execution_time.elapsed");
    const rows = byId(table.rows);
    expect(rows.size).toBe(hits.length);
    for (const record of expected)
      expect(rows.get(String(record._id))).toEqual(parquetRowOf(record, table.types));
  });

  it("aggregations to Parquet: one row per slice and job state, doc_count and average elapsed as counted from the hits", async ({
    service,
    workspace,
  }) => {
    const { emulator } = service;
    const { out, stderr } = await runPipeline(
      service,
      workspace,
      "jobs-aggs",
      (to) => `source:
  kind: jobs
  application: atr
  app_type: [ec2, kubernetes]
  domain: ["*"]
  window: { start: "${START}", end: "${END}", slice: 3h }
  strategy: aggs
  aggs:
    by_state:
      terms: { field: job.state, size: 10 }
      aggs:
        mean_elapsed: { avg: { field: job.execution_time.elapsed } }
sinks:
  - format: parquet
    to: ${to}
`,
    );
    expect(stderr).toBe("");
    const hits = await collect(
      emulator.expectedHits("jobs", {
        application: "atr",
        app_type: ["ec2", "kubernetes"],
        domain: ["*"],
        start_time: START,
        end_time: END,
        size: 1000,
      }),
    );
    const groups = groupBy(
      hits,
      (hit) => bucketKey(sliceStartOf(hit._source["@timestamp"], 3 * HOUR_MS), valueOf(hit, "job.state")),
      () => ({ count: 0, sum: 0, n: 0 }),
      (group, hit) => {
        group.count++;
        const elapsed = valueOf(hit, "job.execution_time.elapsed");
        if (typeof elapsed === "number") {
          group.sum += elapsed;
          group.n++;
        }
      },
    );
    const { rows, types } = await readAggregationRows(out, "parquet", groups, (row) =>
      bucketKey(row.slice_start, row.by_state),
    );
    expect(types).toEqual({
      slice_start: "TIMESTAMP",
      slice_end: "TIMESTAMP",
      by_state: "VARCHAR",
      mean_elapsed: "DOUBLE",
      doc_count: "BIGINT",
    });
    for (const [key, group] of groups) {
      const row = rows.get(key);
      expect(row?.doc_count, key).toBe(group.count);
      if (group.n === 0) expect(row?.mean_elapsed, key).toBeNull();
      else expect(row?.mean_elapsed as number, key).toBeCloseTo(group.sum / group.n, 6);
      expect(Date.parse(String(row?.slice_end)) - Date.parse(String(row?.slice_start))).toBe(3 * HOUR_MS);
    }
  });
});

function valueOf(hit: { _source: Record<string, unknown> }, path: string): unknown {
  return flattenRecord(hit._source)[path];
}

describe("tickets", () => {
  it("point in time to gzip NDJSON with filter, select, redact (mask) and drop: exactly the kept tickets, masked", async ({
    service,
    workspace,
  }) => {
    const { emulator } = service;
    const { out, stderr } = await runPipeline(
      service,
      workspace,
      "tickets-pit",
      (to) => `source:
  kind: tickets
  application: atr
  app_type: kubernetes
  domain: [alpha.example, charlie.example]
  window: { start: "${START}", end: "${END}", slice: 2h }
  strategy: pit
  page_size: 25
  includes_eu: false
transforms:
  - filter: { field: ticket.type, in: [INCIDENT, SR_TASK] }
  - select: { fields: [_id, ticket.number, ticket.type, ticket.state, ticket.description, atr.domain_name, "@timestamp"] }
  - redact: { fields: [ticket.number], method: mask, keep_last: 4 }
  - drop: { fields: [ticket.description] }
sinks:
  - format: ndjson
    gzip: true
    to: ${to}
`,
    );
    expect(stderr).toBe("");
    const hits = await collect(
      emulator.expectedHits("tickets", {
        application: "atr",
        app_type: ["kubernetes"],
        domain: ["alpha.example", "charlie.example"],
        start_time: START,
        end_time: END,
        size: 25,
        includes_eu: false,
      }),
    );
    const kept = hits.filter((hit) => ["INCIDENT", "SR_TASK"].includes(String(valueOf(hit, "ticket.type"))));
    expect(kept.length).toBeGreaterThan(10);
    expect(kept.length).toBeLessThan(hits.length);
    const { files } = await checkCompleteExport(out, kept.length);
    expect(files.every((file) => file.endsWith(".ndjson.gz"))).toBe(true);
    const lines = byId(await readNdjson(out, files));
    expect(lines.size).toBe(kept.length);
    for (const hit of kept) {
      const ticket = hit._source.ticket as Record<string, unknown>;
      const number = String(ticket.number);
      expect(lines.get(hit._id)).toEqual({
        _id: hit._id,
        ticket: {
          number: `${"*".repeat(number.length - 4)}${number.slice(-4)}`,
          type: ticket.type,
          state: ticket.state,
        },
        atr: { domain_name: valueOf(hit, "atr.domain_name") },
        "@timestamp": hit._source["@timestamp"],
      });
    }
  });

  it("aggregations to NDJSON: hourly date histogram with ticket types beneath, counts as counted from the hits", async ({
    service,
    workspace,
  }) => {
    const { emulator } = service;
    const { out, stderr } = await runPipeline(
      service,
      workspace,
      "tickets-aggs",
      (to) => `source:
  kind: tickets
  application: atr
  app_type: [ec2]
  domain: ["*"]
  window: { start: "${START}", end: "${END}", slice: 6h }
  strategy: aggs
  filters: [{ term: { ticket.resolved: false } }]
  aggs:
    per_hour:
      date_histogram: { field: "@timestamp", fixed_interval: 1h }
      aggs:
        by_type: { terms: { field: ticket.type, size: 10 } }
sinks:
  - format: ndjson
    to: ${to}
`,
    );
    expect(stderr).toBe("");
    const hits = await collect(
      emulator.expectedHits("tickets", {
        application: "atr",
        app_type: ["ec2"],
        domain: ["*"],
        start_time: START,
        end_time: END,
        size: 1000,
        filters: [{ term: { "ticket.resolved": false } }],
      }),
    );
    expect(hits.some((hit) => valueOf(hit, "ticket.resolved") === true)).toBe(false);
    const counts = countBy(hits, (hit) =>
      bucketKey(sliceStartOf(hit._source["@timestamp"], HOUR_MS), valueOf(hit, "ticket.type")),
    );
    expect(counts.size).toBeGreaterThan(6);
    const { rows } = await readAggregationRows(out, "ndjson", counts, (row) =>
      bucketKey(row.per_hour, row.by_type),
    );
    for (const [key, count] of counts) expect(rows.get(key)?.doc_count, key).toBe(count);
    for (const row of rows.values()) {
      expect(row.slice_start).toBe(START);
      expect(row.slice_end).toBe(END);
    }
  });
});
