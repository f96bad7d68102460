// The Parquet writer comparison on our real rows: jobs exactly as the exporter hands them to the sink
// (the emulator's generated hits, `_id` and `_index` beside `_source`, nested as the service sends them)
// and the columns the exporter derives from the jobs mappings. Each writer runs in its own process.
// Run after `npm run build`: node bench/parquet-real-rows.js [--rows 200000] [--batch 1000]
//   [--row-group 100000]. PARQUETJS_LITE=/path/to/node_modules/parquetjs-lite adds parquetjs-lite (not
//   a dependency; install it somewhere temporarily). Prints a markdown table.
import { createWriteStream, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { compareWriters, measureWriter } from "./writer-comparison.js";

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const index = args.indexOf(`--${name}`);
  return index === -1 ? fallback : Number(args[index + 1]);
};
const ROWS = option("rows", 200_000);
const BATCH = option("batch", 1_000);
const ROW_GROUP = option("row-group", 100_000);

/** Pages of real job rows: the rows of what the point-in-time source yields, `BATCH` at a time. */
async function* pages() {
  const { startEmulator } = await import("../dist/emulator/server.js");
  const { hitsToRows } = await import("../dist/kinds/source-spec.js");
  const hours = 48;
  const body = {
    application: "atr",
    app_type: ["ec2", "kubernetes"],
    domain: ["*"],
    start_time: "2026-03-01T00:00:00.000Z",
    end_time: new Date(Date.parse("2026-03-01T00:00:00Z") + hours * 3_600_000).toISOString(),
    size: BATCH,
  };
  let batch = [];
  let count = 0;
  // The hits the emulator would page out, computed without HTTP (RunningEmulator.expectedHits).
  const emulator = await startEmulator({ port: 0, seed: 7, density: Math.ceil(ROWS / (6 * hours)) * 2 });
  try {
    for await (const hit of emulator.expectedHits("jobs", body)) {
      batch.push(hit);
      if (++count === ROWS || batch.length === BATCH) {
        yield hitsToRows(batch).rows;
        batch = [];
      }
      if (count === ROWS) return;
    }
    if (batch.length > 0) yield hitsToRows(batch).rows;
  } finally {
    await emulator.close();
  }
}

async function columns() {
  const { mappingFields } = await import("../dist/emulator/mappings.js");
  const { columnsFromMappings } = await import("../dist/core/columns-from-mappings.js");
  return columnsFromMappings(mappingFields("jobs"));
}

async function runOurs(file, pageVersion = 1) {
  const { parquetFormat } = await import("../dist/formats/parquet/parquet-format.js");
  const out = createWriteStream(file);
  const encoder = parquetFormat.createEncoder(await columns(), { rowGroupRows: ROW_GROUP, pageVersion });
  const write = (chunks) => chunks.forEach((chunk) => out.write(chunk));
  for await (const rows of pages()) write(await encoder.encode({ kind: "rows", rows }));
  write(await encoder.finish());
  await new Promise((resolve) => out.end(resolve));
}

/** The rows alone, nothing written: what every other line's time includes. */
async function runRowsOnly(file) {
  let count = 0;
  for await (const rows of pages()) count += rows.length;
  writeFileSync(file, String(count));
}

/** The same column values as ours, row groups as ours, encoded by hyparquet-writer 0.17 (V2 pages). */
async function runHyparquetWriter(file) {
  const { ByteWriter, ParquetWriter } = await import("hyparquet-writer");
  const { DEFAULT_ROW_GROUP_BYTES } = await import("../dist/formats/parquet/parquet-format.js");
  const { parquetSchema } = await import("../dist/formats/parquet/schema.js");
  const { ColumnBuffers } = await import("../dist/formats/parquet/column-buffers.js");
  const cols = await columns();
  const out = new ByteWriter();
  const writer = new ParquetWriter({ writer: out, schema: parquetSchema(cols), codec: "SNAPPY" });
  const buffers = new ColumnBuffers(cols);
  const flush = () => {
    if (buffers.rows === 0) return;
    const values = buffers.take();
    writer.write({
      columnData: cols.map((c, i) => ({ name: c.name, data: values[i] })),
      rowGroupSize: ROW_GROUP,
    });
  };
  for await (const rows of pages()) {
    buffers.append({ kind: "rows", rows }, 0, rows.length);
    if (buffers.rows >= ROW_GROUP || buffers.bytes >= DEFAULT_ROW_GROUP_BYTES) flush();
  }
  flush();
  writer.finish();
  writeFileSync(file, out.getBytes());
}

/** arrow-rs through parquet-wasm: the same values as Arrow columns, one record batch per row group. */
async function runParquetWasm(file) {
  const arrow = await import("apache-arrow");
  const wasm = await import("parquet-wasm");
  const { DEFAULT_ROW_GROUP_BYTES } = await import("../dist/formats/parquet/parquet-format.js");
  const { ColumnBuffers } = await import("../dist/formats/parquet/column-buffers.js");
  const cols = await columns();
  const types = {
    string: () => new arrow.Utf8(),
    json: () => new arrow.Utf8(),
    double: () => new arrow.Float64(),
    int64: () => new arrow.Int64(),
    int32: () => new arrow.Int32(),
    boolean: () => new arrow.Bool(),
    timestamp: () => new arrow.TimestampMillisecond("UTC"),
  };
  const buffers = new ColumnBuffers(cols);
  const tables = [];
  const flush = () => {
    if (buffers.rows === 0) return;
    const values = buffers.take();
    const vectors = {};
    cols.forEach((c, i) => (vectors[c.name] = arrow.vectorFromArray(values[i], types[c.type]())));
    tables.push(new arrow.Table(vectors));
  };
  for await (const rows of pages()) {
    buffers.append({ kind: "rows", rows }, 0, rows.length);
    if (buffers.rows >= ROW_GROUP || buffers.bytes >= DEFAULT_ROW_GROUP_BYTES) flush();
  }
  flush();
  const table = tables.length === 1 ? tables[0] : tables[0].concat(...tables.slice(1));
  const props = new wasm.WriterPropertiesBuilder().setCompression(wasm.Compression.SNAPPY).build();
  const bytes = wasm.writeParquet(wasm.Table.fromIPCStream(arrow.tableToIPC(table, "stream")), props);
  writeFileSync(file, bytes);
}

/** DuckDB's native writer fed the rows as NDJSON staged on disk (read_json, then COPY). */
async function runDuckDb(file) {
  const { DuckDBInstance } = await import("@duckdb/node-api");
  const staged = `${file}.ndjson`;
  const out = createWriteStream(staged);
  for await (const rows of pages()) out.write(rows.map((row) => JSON.stringify(row)).join("\n") + "\n");
  await new Promise((resolve) => out.end(resolve));
  const instance = await DuckDBInstance.create(":memory:");
  const connection = await instance.connect();
  await connection.run(
    `COPY (SELECT * FROM read_json('${staged}', format = 'newline_delimited')) TO '${file}' (FORMAT parquet)`,
  );
  connection.closeSync();
  instance.closeSync();
  rmSync(staged);
}

async function runParquetjsLite(file) {
  const { default: parquet } = await import(join(process.env.PARQUETJS_LITE, "parquet.js"));
  const { createColumnReader } = await import("../dist/formats/column-value.js");
  const { coercers } = await import("../dist/formats/coerce-value.js");
  const toType = {
    string: "UTF8",
    json: "UTF8",
    timestamp: "TIMESTAMP_MILLIS",
    double: "DOUBLE",
    int32: "INT32",
    int64: "INT64",
    boolean: "BOOLEAN",
  };
  const cols = (await columns()).map((column) => ({
    key: column.name.replaceAll(".", "_"),
    type: column.type,
    read: createColumnReader(column),
    coerce: coercers[column.type],
  }));
  const schema = new parquet.ParquetSchema(
    Object.fromEntries(
      cols.map((c) => [c.key, { type: toType[c.type], optional: true, compression: "SNAPPY" }]),
    ),
  );
  const writer = await parquet.ParquetWriter.openFile(schema, file);
  writer.setRowGroupSize(ROW_GROUP);
  for await (const rows of pages()) {
    for (const row of rows) {
      // The same value rules as ours, so both files hold the same data; parquetjs-lite wants Dates.
      const record = {};
      for (const c of cols) {
        let value = c.coerce(c.read(row));
        if (value === null || value === undefined) continue;
        if (c.type === "timestamp") value = new Date(Number(value));
        else if (typeof value === "bigint") value = Number(value);
        record[c.key] = value;
      }
      await writer.appendRow(record);
    }
  }
  await writer.close();
}

const WRITERS = {
  "rows only (no writer)": runRowsOnly,
  "mdq-export parquet (own encoder, V1 pages)": (file) => runOurs(file, 1),
  "mdq-export parquet, page_version 2": (file) => runOurs(file, 2),
  "hyparquet-writer 0.17 (V2 pages)": runHyparquetWriter,
  "parquet-wasm 0.8 (arrow-rs)": runParquetWasm,
  "duckdb 1.5 (NDJSON staged, COPY)": runDuckDb,
  "parquetjs-lite": runParquetjsLite,
};

if (args[0] === "--child") {
  const [, name, file] = args;
  await measureWriter(WRITERS[name], file);
} else {
  const cols = await columns();
  console.log(
    `${ROWS} real job rows (generated hits as the source yields them), ${cols.length} columns, ` +
      `batches of ${BATCH}, row groups of ${ROW_GROUP}, Node ${process.version}; the time includes generating the rows`,
  );
  compareWriters({
    script: fileURLToPath(import.meta.url),
    names: Object.keys(WRITERS),
    rows: ROWS,
    args,
    tempPrefix: "mdq-bench-parquet-real-",
  });
}
