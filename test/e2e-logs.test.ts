// End to end, logs: v2 scroll, v2 batch, v1 scroll and v1 batch (deprecated), aggregations, and
// serverless eventops scope; real YAML through main() against an emulator on port 0, the output read
// back with DuckDB and line parsing and compared with the emulator's hits for the same query.
import { describe, expect } from "vitest";
import { byId, checkCompleteExport, readAggregationRows } from "./support/export-checks.js";
import {
  bucketKey,
  countBy,
  hitRecord,
  HOUR_MS,
  parquetRowOf,
  sliceStartOf,
} from "./support/expected-rows.js";
import { collect, readNdjson, readParquet } from "./support/read-output.js";
import { runPipeline } from "./support/run-pipeline.js";
import { useEmulator } from "./support/use-emulator.js";

const START = "2026-03-10T00:00:00.000Z";
const END = "2026-03-10T04:00:00.000Z";

const it = useEmulator();

describe("logs, v2", () => {
  it("scroll over two app types to NDJSON: every log of both once, whole records equal (awkward text included)", async ({
    service,
    workspace,
  }) => {
    const { out, stderr } = await runPipeline(
      service,
      workspace,
      "logs-scroll",
      (to) => `source:
  kind: logs
  application: atr
  app_type: [ec2, kubernetes]
  domain: [alpha.example, bravo.example]
  window: { start: "${START}", end: "${END}", slice: 1h }
  strategy: scroll
  page_size: 16
sinks:
  - format: ndjson
    to: ${to}
`,
    );
    expect(stderr).toBe("");
    const hits = [];
    for (const appType of ["ec2", "kubernetes"]) {
      hits.push(
        ...(await collect(
          service.emulator.expectedHits("logs", {
            application: "atr",
            app_type: appType,
            domain: ["alpha.example", "bravo.example"],
            start_time: START,
            end_time: END,
            size: 16,
          }),
        )),
      );
    }
    expect(hits.length).toBeGreaterThan(60);
    const { files } = await checkCompleteExport(out, hits.length);
    expect(files).toHaveLength(4);
    const lines = byId(await readNdjson(out, files));
    expect(lines.size).toBe(hits.length);
    for (const hit of hits) expect(lines.get(hit._id)).toEqual(hitRecord(hit));
  });

  it("batch to gzip NDJSON with a query filter and projected fields: the batch export's logs, once each", async ({
    service,
    workspace,
  }) => {
    const fields = ["@timestamp", "level", "message", "atr.domain_name", "response.status_code"];
    const { out } = await runPipeline(
      service,
      workspace,
      "logs-batch",
      (to) => `source:
  kind: logs
  application: klewer
  app_type: kubernetes
  domain: ["*"]
  window: { start: "${START}", end: "${END}", slice: 2h }
  strategy: batch
  filters: [{ terms: { level: [ERROR, WARN] } }]
  fields: [${fields.map((field) => `"${field}"`).join(", ")}]
sinks:
  - format: ndjson
    gzip: true
    to: ${to}
    max_rows_per_file: 10
    path: "{slice}/part-{seq}.{ext}"
`,
    );
    const hits = await collect(
      service.emulator.expectedHits("/v2/logs/batch", {
        application: "klewer",
        app_type: "kubernetes",
        domain: ["*"],
        start_time: START,
        end_time: END,
        filters: [{ terms: { level: ["ERROR", "WARN"] } }],
        fields,
      }),
    );
    expect(hits.length).toBeGreaterThan(10);
    expect(hits.every((hit) => ["ERROR", "WARN"].includes(String(hit._source.level)))).toBe(true);
    const { files, manifest } = await checkCompleteExport(out, hits.length);
    expect(files.every((file) => file.endsWith(".ndjson.gz"))).toBe(true);
    expect(manifest.files.every((file) => file.rows <= 10)).toBe(true);
    expect(files.length).toBeGreaterThanOrEqual(Math.ceil(hits.length / 10));
    const lines = byId(await readNdjson(out, files));
    expect(lines.size).toBe(hits.length);
    for (const hit of hits) expect(lines.get(hit._id)).toEqual(hitRecord(hit));
  });

  it("aggregations over two app types to Parquet: per slice, app type and level, doc_count as counted from the hits (regression: the app types' buckets were rows with the same keys)", async ({
    service,
    workspace,
  }) => {
    const { out } = await runPipeline(
      service,
      workspace,
      "logs-aggs",
      (to) => `source:
  kind: logs
  application: quasar
  app_type: [ec2, kubernetes]
  domain: ["*"]
  window: { start: "${START}", end: "${END}", slice: 2h }
  strategy: aggs
  aggs:
    by_level: { terms: { field: level, size: 20 } }
sinks:
  - format: parquet
    to: ${to}
`,
    );
    const counts = new Map<string, number>();
    for (const appType of ["ec2", "kubernetes"]) {
      const hits = await collect(
        service.emulator.expectedHits("logs", {
          application: "quasar",
          app_type: appType,
          domain: ["*"],
          start_time: START,
          end_time: END,
          size: 1000,
        }),
      );
      for (const [key, count] of countBy(hits, (hit) =>
        bucketKey(sliceStartOf(hit._source["@timestamp"], 2 * HOUR_MS), appType, hit._source.level),
      ))
        counts.set(key, count);
    }
    expect(counts.size).toBeGreaterThan(4);
    const { rows, types } = await readAggregationRows(out, "parquet", counts, (row) =>
      bucketKey(row.slice_start, row.app_type, row.by_level),
    );
    expect(types).toEqual({
      slice_start: "TIMESTAMP",
      slice_end: "TIMESTAMP",
      app_type: "VARCHAR",
      by_level: "VARCHAR",
      doc_count: "BIGINT",
    });
    for (const [key, count] of counts) expect(rows.get(key)?.doc_count, key).toBe(count);
  });

  it("serverless eventops scope (auto strategy) to Parquet with redact (hash): every log of the log groups, tenants and stages", async ({
    service,
    workspace,
  }) => {
    const { out } = await runPipeline(
      service,
      workspace,
      "logs-serverless",
      (to) => `source:
  kind: logs
  application: eventops
  app_type: serverless
  log_group: ["*"]
  tenant: [acme]
  stage: [prod, dev]
  window: { start: "${START}", end: "${END}", slice: 1h }
  page_size: 50
transforms:
  - redact: { fields: [function_name], method: hash }
sinks:
  - format: parquet
    to: ${to}
    path: "origin={event.origin}/{slice}-{seq}.{ext}"
`,
    );
    const hits = await collect(
      service.emulator.expectedHits("logs", {
        application: "eventops",
        app_type: "serverless",
        log_group: ["*"],
        tenant: ["acme"],
        stage: ["prod", "dev"],
        start_time: START,
        end_time: END,
        size: 50,
      }),
    );
    expect(hits.length).toBeGreaterThan(30);
    const { files } = await checkCompleteExport(out, hits.length);
    const origins = new Set(
      hits.map((hit) => `origin=${String((hit._source.event as { origin: string }).origin)}`),
    );
    expect(origins.size).toBeGreaterThan(1);
    expect(new Set(files.map((file) => file.split("/")[0]))).toEqual(origins);
    const table = await readParquet(out, files);
    expect(table.types).toMatchObject({ function_name: "VARCHAR", "event.origin": "VARCHAR" });
    expect(Object.keys(table.types)).not.toContain("atr.domain_name");
    const rows = byId(table.rows);
    expect(rows.size).toBe(hits.length);
    const { createHash } = await import("node:crypto");
    for (const hit of hits) {
      const record = hitRecord(hit);
      const name = record.function_name;
      record.function_name =
        typeof name === "string" ? createHash("sha256").update(name).digest("hex") : (name ?? null);
      expect(rows.get(hit._id)).toEqual(parquetRowOf(record, table.types));
    }
  });
});

describe("logs, v1 (deprecated)", () => {
  it("scroll to Parquet: the logs of the date-math range, a deprecation warning, values equal", async ({
    service,
    workspace,
  }) => {
    const { out, stderr } = await runPipeline(
      service,
      workspace,
      "logs-v1-scroll",
      (to) => `source:
  kind: logs
  api: v1
  application: atr
  app_type: ec2
  domain: [bravo.example]
  window: { start: now-3h/h, end: now }
  strategy: scroll
  page_size: 20
sinks:
  - format: parquet
    to: ${to}
`,
    );
    expect(stderr).toContain("deprecated");
    const hits = await collect(
      service.emulator.expectedHits("/v1/logs/scroll", {
        application: "atr",
        time_range: "now-3h/h",
        app_type: "ec2",
        domain: "bravo.example",
        size: 20,
      }),
    );
    expect(hits.length).toBeGreaterThan(20);
    const { files } = await checkCompleteExport(out, hits.length);
    const table = await readParquet(out, files);
    const rows = byId(table.rows);
    expect(rows.size).toBe(hits.length);
    for (const hit of hits) expect(rows.get(hit._id)).toEqual(parquetRowOf(hitRecord(hit), table.types));
  });

  it("batch with eventops scope to NDJSON: the batch export's logs of one log group, tenant and stage (regression: the mappings were asked for eventops with app_type ec2, a 400)", async ({
    service,
    workspace,
  }) => {
    const { out } = await runPipeline(
      service,
      workspace,
      "logs-v1-batch",
      (to) => `source:
  kind: logs
  api: v1
  application: eventops
  log_group: [/aws/lambda/orders]
  tenant: [globex]
  stage: [prod]
  window: { start: now-2h/h }
  strategy: batch
sinks:
  - format: ndjson
    to: ${to}
`,
    );
    const hits = await collect(
      service.emulator.expectedHits("/v1/logs/batch", {
        application: "eventops",
        time_range: "now-2h/h",
        log_group: "/aws/lambda/orders",
        tenant: "globex",
        stage: "prod",
      }),
    );
    expect(hits.length).toBeGreaterThan(5);
    const { files } = await checkCompleteExport(out, hits.length);
    const lines = byId(await readNdjson(out, files));
    expect(lines.size).toBe(hits.length);
    for (const hit of hits) expect(lines.get(hit._id)).toEqual(hitRecord(hit));
  });
});
