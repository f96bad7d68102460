// End to end, workloads (scroll, batch, aggs), metrics (scroll, aggs) and billing: real YAML through
// main() against an emulator on port 0; the output read back with DuckDB and line parsing equals the
// emulator's records for the same query.
import { join } from "node:path";
import { describe, expect } from "vitest";
import { byId, checkCompleteExport, readAggregationRows } from "./support/export-checks.js";
import {
  bucketKey,
  flattenRecord,
  groupBy,
  hitRecord,
  HOUR_MS,
  parquetRowOf,
  sliceStartOf,
} from "./support/expected-rows.js";
import { collect, readNdjson, readParquet } from "./support/read-output.js";
import { EXPORT_EMULATOR } from "./support/cli-harness.js";
import type { TestService } from "./support/cli-harness.js";
import { runPipeline } from "./support/run-pipeline.js";
import { serviceFixture, useEmulator } from "./support/use-emulator.js";

const START = "2026-03-10T00:00:00.000Z";
const END = "2026-03-10T04:00:00.000Z";

const it = useEmulator().extend<{ jsonArrayService: TestService }>({
  /** Serves batch partitions as JSON arrays, the least likely of the formats the spec leaves open. */
  jsonArrayService: serviceFixture({
    ...EXPORT_EMULATOR,
    partitionFormat: "json-array",
    batchPartitionSeconds: 1800,
  }),
});

describe("workloads", () => {
  it("scroll over two app types to Parquet: every workload once, values equal (missing tickets as nulls)", async ({
    service,
    workspace,
  }) => {
    const { emulator } = service;
    const { out, stderr } = await runPipeline(
      service,
      workspace,
      "workloads-scroll",
      (to) => `source:
  kind: workloads
  application: atr
  app_type: [ec2, kubernetes]
  domain: ["*"]
  window: { start: "${START}", end: "${END}", slice: 1h }
  strategy: scroll
  page_size: 30
sinks:
  - format: parquet
    to: ${to}
    row_group_rows: 1000
    max_rows_per_file: 40
`,
    );
    expect(stderr).toBe("");
    const hits = [];
    for (const appType of ["ec2", "kubernetes"])
      hits.push(
        ...(await collect(
          emulator.expectedHits("workloads", {
            application: "atr",
            app_type: appType,
            domain: ["*"],
            start_time: START,
            end_time: END,
            size: 30,
          }),
        )),
      );
    expect(hits.length).toBeGreaterThan(100);
    expect(hits.some((hit) => hit._source.ticket === undefined)).toBe(true);
    const { files } = await checkCompleteExport(out, hits.length);
    const table = await readParquet(out, files);
    expect(table.types).toMatchObject({
      "workload.execution_time.elapsed": "DOUBLE",
      "@timestamp": "TIMESTAMP",
    });
    const rows = byId(table.rows);
    expect(rows.size).toBe(hits.length);
    for (const hit of hits) expect(rows.get(hit._id)).toEqual(parquetRowOf(hitRecord(hit), table.types));
  });

  it("batch with JSON-array partitions to NDJSON with flatten (underscores) and a filter: the kept workloads once each", async ({
    workspace,
    jsonArrayService,
  }) => {
    const jsonArrayEmulator = jsonArrayService.emulator;
    const { out, stderr } = await runPipeline(
      jsonArrayService,
      workspace,
      "workloads-batch",
      (to) => `source:
  kind: workloads
  application: atr
  app_type: ec2
  domain: [alpha.example, charlie.example]
  window: { start: "${START}", end: "${END}", slice: 2h }
  strategy: batch
transforms:
  - flatten: { separator: _ }
  - filter: { not: { field: workload_state, equals: DONE } }
sinks:
  - format: ndjson
    to: ${to}
`,
    );
    expect(stderr).toBe("");
    const hits = await collect(
      jsonArrayEmulator.expectedHits("/v2/workloads/batch", {
        application: "atr",
        app_type: "ec2",
        domain: ["alpha.example", "charlie.example"],
        start_time: START,
        end_time: END,
      }),
    );
    const kept = hits.filter((hit) => (hit._source.workload as { state?: unknown }).state !== "DONE");
    expect(kept.length).toBeGreaterThan(3);
    expect(kept.length).toBeLessThan(hits.length);
    // Partitions of 30 minutes: each 2 h slice downloads four and reconciles their counts.
    expect(jsonArrayEmulator.requestCount("/downloads")).toBeGreaterThanOrEqual(8);
    const { files, manifest } = await checkCompleteExport(out, kept.length);
    expect(manifest.slices.map((slice) => slice.read)).toEqual(
      [0, 1].map(
        (index) =>
          hits.filter(
            (hit) =>
              sliceStartOf(hit._source["@timestamp"], 2 * HOUR_MS) ===
              new Date(Date.parse(START) + index * 2 * HOUR_MS).toISOString(),
          ).length,
      ),
    );
    const lines = byId(await readNdjson(out, files));
    expect(lines.size).toBe(kept.length);
    for (const hit of kept) expect(lines.get(hit._id)).toEqual(flattenRecord(hitRecord(hit), "_"));
  });

  it("aggregations with a query filter to NDJSON: per slice and workload state, doc_count and summed elapsed as counted from the filtered hits (regression: v2 aggregations dropped the pipeline's filters)", async ({
    service,
    workspace,
  }) => {
    const { emulator } = service;
    const { out, stderr } = await runPipeline(
      service,
      workspace,
      "workloads-aggs",
      (to) => `source:
  kind: workloads
  application: atr
  app_type: kubernetes
  domain: ["*"]
  window: { start: "${START}", end: "${END}", slice: 1h }
  strategy: aggs
  filters: [{ range: { workload.execution_time.elapsed: { gte: 60 } } }]
  aggs:
    by_state:
      terms: { field: workload.state }
      aggs: { total_elapsed: { sum: { field: workload.execution_time.elapsed } } }
sinks:
  - format: ndjson
    to: ${to}
`,
    );
    expect(stderr).toBe("");
    const hits = await collect(
      emulator.expectedHits("workloads", {
        application: "atr",
        app_type: "kubernetes",
        domain: ["*"],
        start_time: START,
        end_time: END,
        size: 1000,
        filters: [{ range: { "workload.execution_time.elapsed": { gte: 60 } } }],
      }),
    );
    const all = emulator.expectedCount("workloads", {
      application: "atr",
      app_type: "kubernetes",
      domain: ["*"],
      start_time: START,
      end_time: END,
    });
    expect(hits.length).toBeGreaterThan(5);
    expect(hits.length).toBeLessThan(all);
    const groups = groupBy(
      hits,
      (hit) => {
        const workload = hit._source.workload as { state: string };
        return bucketKey(sliceStartOf(hit._source["@timestamp"], HOUR_MS), workload.state);
      },
      () => ({ count: 0, sum: 0 }),
      (group, hit) => {
        group.count++;
        group.sum +=
          (hit._source.workload as { execution_time?: { elapsed?: number } }).execution_time?.elapsed ?? 0;
      },
    );
    const { rows } = await readAggregationRows(out, "ndjson", groups, (row) =>
      bucketKey(row.slice_start, row.by_state),
    );
    for (const [key, group] of groups) {
      expect(rows.get(key)?.doc_count, key).toBe(group.count);
      expect(rows.get(key)?.total_elapsed as number, key).toBeCloseTo(group.sum, 6);
    }
  });
});

describe("metrics", () => {
  it("scroll over ec2 and kubernetes to Parquet with select and rename: cluster columns null on ec2, values equal", async ({
    service,
    workspace,
  }) => {
    const { emulator } = service;
    const { out, stderr } = await runPipeline(
      service,
      workspace,
      "metrics-scroll",
      (to) => `source:
  kind: metrics
  application: atr
  app_type: [ec2, kubernetes]
  domain: [bravo.example]
  window: { start: "${START}", end: "${END}", slice: 1h }
  strategy: scroll
  page_size: 9
transforms:
  - select: { fields: [_id, "@timestamp", atr.infra_type, atr.infra_data.cluster, system.cpu.total.pct, host.hostname] }
  - rename: { system.cpu.total.pct: cpu_pct, atr.infra_data.cluster: cluster }
sinks:
  - format: parquet
    to: ${to}
`,
    );
    expect(stderr).toBe("");
    const hits = await collect(
      emulator.expectedHits("metrics", {
        application: "atr",
        app_type: ["ec2", "kubernetes"],
        domain: ["bravo.example"],
        start_time: START,
        end_time: END,
        size: 9,
        includes_eu: true,
      }),
    );
    expect(hits.length).toBeGreaterThan(30);
    const { files } = await checkCompleteExport(out, hits.length);
    const table = await readParquet(out, files);
    expect(Object.keys(table.types).sort()).toEqual(
      ["_id", "@timestamp", "atr.infra_type", "cluster", "cpu_pct", "host.hostname"].sort(),
    );
    expect(table.types.cpu_pct).toBe("DOUBLE");
    const rows = byId(table.rows);
    expect(rows.size).toBe(hits.length);
    let clustered = 0;
    for (const hit of hits) {
      const flat = flattenRecord(hitRecord(hit));
      const expected = parquetRowOf(
        { ...flat, cpu_pct: flat["system.cpu.total.pct"], cluster: flat["atr.infra_data.cluster"] },
        table.types,
      );
      expect(rows.get(hit._id)).toEqual(expected);
      if (expected.cluster !== null) clustered++;
    }
    expect(clustered).toBeGreaterThan(0);
    expect(clustered).toBeLessThan(hits.length);
  });

  it("aggregations to Parquet: per slice and domain, mean cpu and the count of values as computed from the hits", async ({
    service,
    workspace,
  }) => {
    const { emulator } = service;
    const { out, stderr } = await runPipeline(
      service,
      workspace,
      "metrics-aggs",
      (to) => `source:
  kind: metrics
  application: klewer
  app_type: [ec2]
  domain: ["*"]
  window: { start: "${START}", end: "${END}", slice: 2h }
  strategy: aggs
  aggs:
    by_domain:
      terms: { field: atr.domain_name, size: 10 }
      aggs:
        mean_cpu: { avg: { field: system.cpu.total.pct } }
        cpu_values: { value_count: { field: system.cpu.total.pct } }
sinks:
  - format: parquet
    to: ${to}
`,
    );
    expect(stderr).toBe("");
    const hits = await collect(
      emulator.expectedHits("metrics", {
        application: "klewer",
        app_type: ["ec2"],
        domain: ["*"],
        start_time: START,
        end_time: END,
        size: 1000,
      }),
    );
    const groups = groupBy(
      hits.map((hit) => flattenRecord(hit._source)),
      (flat) => bucketKey(sliceStartOf(flat["@timestamp"], 2 * HOUR_MS), flat["atr.domain_name"]),
      () => ({ count: 0, values: [] as number[] }),
      (group, flat) => {
        group.count++;
        const cpu = flat["system.cpu.total.pct"];
        if (typeof cpu === "number") group.values.push(cpu);
      },
    );
    expect(groups.size).toBe(6);
    const { rows, types } = await readAggregationRows(out, "parquet", groups, (row) =>
      bucketKey(row.slice_start, row.by_domain),
    );
    expect(types).toEqual({
      slice_start: "TIMESTAMP",
      slice_end: "TIMESTAMP",
      by_domain: "VARCHAR",
      mean_cpu: "DOUBLE",
      cpu_values: "BIGINT",
      doc_count: "BIGINT",
    });
    for (const [key, group] of groups) {
      const row = rows.get(key);
      expect(row?.doc_count, key).toBe(group.count);
      expect(row?.cpu_values, key).toBe(group.values.length);
      const mean = group.values.reduce((a, b) => a + b, 0) / group.values.length;
      expect(row?.mean_cpu as number, key).toBeCloseTo(mean, 9);
    }
  });
});

describe("billing", () => {
  it("one summary per domain to Parquet and NDJSON: each equals the service's own /v1/query answer", async ({
    service,
    workspace,
  }) => {
    const { emulator } = service;
    const domains = ["alpha.example", "delta.example"];
    const { out, stderr } = await runPipeline(
      service,
      workspace,
      "billing",
      (to) => `source:
  kind: billing
  domain: [${domains.join(", ")}]
  window: { start: now-7d/d }
sinks:
  - format: parquet
    to: ${to}/parquet
  - format: ndjson
    to: ${to}/ndjson
`,
    );
    expect(stderr).toBe("");
    const token = (await (
      await fetch(`${emulator.url}/oauth2/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          grant_type: "client_credentials",
          client_id: emulator.clientId,
          client_secret: emulator.clientSecret,
        }),
      })
    ).json()) as { access_token: string };
    const summaries: Record<string, unknown>[] = [];
    for (const domain of domains) {
      const response = await fetch(`${emulator.url}/v1/query`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${token.access_token}` },
        body: JSON.stringify({ domain, time_range: "now-7d/d" }),
      });
      summaries.push(((await response.json()) as { summary: Record<string, unknown> }).summary);
    }
    expect(summaries.map((summary) => summary.ticket_count)).toEqual(
      domains.map((domain) => emulator.expectedCount("/v1/query", { domain, time_range: "now-7d/d" })),
    );
    expect(summaries.every((summary) => (summary.ticket_count as number) > 0)).toBe(true);

    const ndjson = await checkCompleteExport(join(out, "ndjson"), domains.length);
    const lines = await readNdjson(join(out, "ndjson"), ndjson.files);
    expect(lines).toEqual(summaries);

    const parquet = await checkCompleteExport(join(out, "parquet"), domains.length);
    const table = await readParquet(join(out, "parquet"), parquet.files);
    expect(table.types).toMatchObject({ ticket_count: "INTEGER", domain: "VARCHAR", created: "TIMESTAMP" });
    expect(table.rows.sort((a, b) => String(a.domain).localeCompare(String(b.domain)))).toEqual(
      summaries.map((summary) => parquetRowOf(summary, table.types)),
    );
  });
});
