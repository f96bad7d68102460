// Parquet writer benchmark: rows/s and peak memory of our Parquet encoder on job-shaped rows.
// Run after `npm run build`: node bench/parquet-writers.js [--rows 200000] [--batch 5000]
// Each writer runs in its own child process, so peak RSS belongs to that writer alone.
// Set PARQUETJS_LITE=/path/to/node_modules/parquetjs-lite to compare with parquetjs-lite (not a dependency).
import { createWriteStream } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { compareWriters, measureWriter } from "./writer-comparison.js";

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const index = args.indexOf(`--${name}`);
  return index === -1 ? fallback : Number(args[index + 1]);
};
const ROWS = option("rows", 200_000);
const BATCH = option("batch", 5_000);

const columns = [
  { name: "job.id", type: "string" },
  { name: "job.name", type: "string" },
  { name: "job.state", type: "string" },
  { name: "job.type", type: "string" },
  { name: "job.queue", type: "string" },
  { name: "atr.domain_name", type: "string" },
  { name: "atr.application", type: "string" },
  { name: "app_type", type: "string" },
  { name: "host.name", type: "string" },
  { name: "cluster", type: "string" },
  { name: "@timestamp", type: "timestamp" },
  { name: "job.start_time", type: "timestamp" },
  { name: "job.end_time", type: "timestamp" },
  { name: "job.execution_time.elapsed", type: "double" },
  { name: "job.attempts", type: "int32" },
  { name: "job.exit_code", type: "int32" },
  { name: "job.bytes_processed", type: "int64" },
  { name: "job.retryable", type: "boolean" },
];

const STATES = ["SUCCEEDED", "FAILED", "RUNNING", "QUEUED", "CANCELLED"];
const DOMAINS = ["payments", "billing", "search", "ledger", "identity", "catalog", "shipping", "reporting"];

/** A page of rows as the service returns them after `flatten`: ISO timestamps, numbers, some nulls. */
function page(offset, size) {
  const base = Date.UTC(2026, 10, 21);
  return Array.from({ length: size }, (_, k) => {
    const i = offset + k;
    const start = base + i * 173;
    return {
      "job.id": `job-${i.toString(36)}-${(i * 2654435761) % 1e9}`,
      "job.name": `nightly-${DOMAINS[i % 8]}-etl-${i % 97}`,
      "job.state": STATES[i % 5],
      "job.type": i % 3 === 0 ? "batch" : "stream",
      "job.queue": `queue-${i % 12}`,
      "atr.domain_name": DOMAINS[i % 8],
      "atr.application": "atr",
      app_type: i % 2 === 0 ? "ec2" : "kubernetes",
      "host.name": `ip-10-0-${i % 256}-${(i * 7) % 256}.internal`,
      cluster: `cluster-${i % 4}`,
      "@timestamp": new Date(start).toISOString(),
      "job.start_time": new Date(start).toISOString(),
      "job.end_time": i % 5 === 2 ? null : new Date(start + 60_000 + (i % 3600) * 1000).toISOString(),
      "job.execution_time.elapsed": i % 5 === 2 ? null : 60 + (i % 3600) + (i % 100) / 100,
      "job.attempts": 1 + (i % 3),
      "job.exit_code": i % 5 === 1 ? 1 : 0,
      "job.bytes_processed": (i * 1_048_573) % 9_000_000_000,
      "job.retryable": i % 4 !== 0,
    };
  });
}

async function runOurs(file) {
  const { parquetFormat } = await import("../dist/formats/parquet/parquet-format.js");
  const out = createWriteStream(file);
  const encoder = parquetFormat.createEncoder(columns, { rowGroupRows: option("row-group", 100_000) });
  const write = (chunks) => chunks.forEach((chunk) => out.write(chunk));
  for (let offset = 0; offset < ROWS; offset += BATCH)
    write(await encoder.encode({ kind: "rows", rows: page(offset, BATCH) }));
  write(await encoder.finish());
  await new Promise((resolve) => out.end(resolve));
}

async function runParquetjsLite(file) {
  const { default: parquet } = await import(join(process.env.PARQUETJS_LITE, "parquet.js"));
  const toType = {
    string: "UTF8",
    timestamp: "TIMESTAMP_MILLIS",
    double: "DOUBLE",
    int32: "INT32",
    int64: "INT64",
    boolean: "BOOLEAN",
  };
  const schema = new parquet.ParquetSchema(
    Object.fromEntries(
      columns.map((c) => [
        c.name.replaceAll(".", "_"),
        { type: toType[c.type], optional: true, compression: "SNAPPY" },
      ]),
    ),
  );
  const writer = await parquet.ParquetWriter.openFile(schema, file);
  writer.setRowGroupSize(100_000);
  for (let offset = 0; offset < ROWS; offset += BATCH) {
    for (const row of page(offset, BATCH)) {
      const record = {};
      for (const c of columns) {
        const value = row[c.name];
        if (value === null || value === undefined) continue;
        record[c.name.replaceAll(".", "_")] = c.type === "timestamp" ? new Date(value) : value;
      }
      await writer.appendRow(record);
    }
  }
  await writer.close();
}

const WRITERS = { "mdq-export parquet (own encoder)": runOurs, "parquetjs-lite": runParquetjsLite };

if (args[0] === "--child") {
  const [, name, file] = args;
  await measureWriter(WRITERS[name], file);
} else {
  console.log(
    `${ROWS} job-shaped rows, ${columns.length} columns, batches of ${BATCH}, Node ${process.version}`,
  );
  compareWriters({
    script: fileURLToPath(import.meta.url),
    names: Object.keys(WRITERS),
    rows: ROWS,
    args,
    tempPrefix: "mdq-bench-parquet-",
  });
}
