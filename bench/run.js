// `npm run bench`: the exporter against its ceiling, side by side in one run. For each retrieval style
// (jobs over point in time, logs over scroll, logs over batch) it starts the emulator in its own
// process with a per-request latency, runs the ceiling (bench/ceiling.js: the same queries, page size
// and concurrency, each page parsed and thrown away), then the exporter through the CLI into NDJSON,
// gzip NDJSON and Parquet, each with a fresh emulator. Every program runs in its own process, preloaded
// with bench/usage-hook.js, which reports the process's CPU time and peak RSS (getrusage) at exit.
// Requests are counted by the emulator (`--report-requests`). Writes bench/results/latest.json and
// bench/RESULTS.md.
//
// Then pages of 10,000 (bench/large-pages.js): the latency-bound and CPU-bound scenarios; then a run of
// 24 slices against a state of 100,000 committed slices (bench/state-history.js).

//
// node bench/run.js [--scenario all|pages-1000|pages-10000|state-history] [--state-slices 100000] [--records 1000000] [--quick]
//   [--only jobs-pit/parquet,logs-scroll] [--page-size 1000] [--concurrency 4] [--latency-ms 50]
//   [--jitter-ms 20] [--growth 5000000] [--cpu-prof DIR] [--row-group-rows N] [--no-write]
//   [--large-records 500000] [--rounds 3] [--elasticdump PATH] [--before DIR] [--pin]
//   [--large-growth 1000000,5000000]
import { mkdtempSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { summarizeProfile } from "./profile-summary.js";
import {
  CLI,
  dataBytes,
  emulatorEnv,
  fmt,
  pipelineYaml,
  root,
  runNode,
  serviceRequests,
  startEmulator as startEmulatorProcess,
  writtenRecords,
} from "./harness.js";
import { runLargePages } from "./large-pages.js";
import { runStateHistory } from "./state-history.js";
import { markdown, resultsPage } from "./results-page.js";
const { values } = parseArgs({
  options: {
    records: { type: "string" },
    quick: { type: "boolean", default: false },
    only: { type: "string" },
    "page-size": { type: "string", default: "1000" },
    concurrency: { type: "string", default: "4" },
    "latency-ms": { type: "string", default: "50" },
    "jitter-ms": { type: "string", default: "20" },
    growth: { type: "string" },
    "cpu-prof": { type: "string" },
    "no-write": { type: "boolean", default: false },
    "row-group-rows": { type: "string" },
    scenario: { type: "string", default: "all" },
    "large-records": { type: "string", default: "500000" },
    rounds: { type: "string", default: "3" },
    elasticdump: { type: "string", default: process.env.MDQ_BENCH_ELASTICDUMP },
    before: { type: "string" },
    pin: { type: "boolean", default: false },
    "large-growth": { type: "string" },
    "state-slices": { type: "string", default: "100000" },
  },
});
const SCENARIO_NAMES = ["all", "pages-1000", "pages-10000", "state-history"];
if (!SCENARIO_NAMES.includes(values.scenario))
  throw new Error(`--scenario: "${values.scenario}" is not one of ${SCENARIO_NAMES.join(", ")}`);
const runSmallPages = ["all", "pages-1000"].includes(values.scenario);
const runLarge = ["all", "pages-10000"].includes(values.scenario) && values.only === undefined;
const runState = ["all", "state-history"].includes(values.scenario) && values.only === undefined;

const RECORDS = Number(values.records ?? (values.quick ? 50_000 : 1_000_000));
const PAGE_SIZE = Number(values["page-size"]);
const CONCURRENCY = Number(values.concurrency);
const LATENCY_MS = Number(values["latency-ms"]);
const JITTER_MS = Number(values["jitter-ms"]);
const APP_TYPES = ["ec2", "kubernetes"];
const DOMAINS = 3; // the emulator's wildcard domains
const HOURS = 24;
const WINDOW_START = Date.parse("2026-03-01T00:00:00Z");

const RETRIEVALS = [
  { id: "jobs-pit", kind: "jobs", strategy: "pit", mode: "pit", paths: ["/v3/jobs/query"] },
  { id: "logs-scroll", kind: "logs", strategy: "scroll", mode: "scroll", paths: ["/v2/logs/scroll"] },
  {
    id: "logs-batch",
    kind: "logs",
    strategy: "batch",
    mode: "batch",
    paths: ["/v2/logs/batch", "/v2/logs/batch/status", "/downloads"],
  },
];
const FORMATS = [
  { id: "ndjson", sink: { format: "ndjson" }, target: 0.9 },
  { id: "ndjson-gzip", sink: { format: "ndjson", gzip: true }, target: 0.7 },
  {
    id: "parquet",
    sink: {
      format: "parquet",
      ...(values["row-group-rows"] === undefined ? {} : { row_group_rows: Number(values["row-group-rows"]) }),
    },
    target: 0.7,
  },
];

const selected = (id) =>
  values.only === undefined ||
  values.only.split(",").some((want) => id === want || id.startsWith(`${want}/`));

/** Records per hour per stream that put about `records` in the window (each hour holds 0.5–1.5×). */
const densityFor = (records) => records / (DOMAINS * APP_TYPES.length * HOURS);
/** The window: HOURS one-hour slices, or more of them at the same density for the memory-growth run. */
const windowOf = (hours = HOURS) => ({
  start: new Date(WINDOW_START).toISOString(),
  end: new Date(WINDOW_START + hours * 3_600_000).toISOString(),
});

const startEmulator = (density) =>
  startEmulatorProcess({ density, latencyMs: LATENCY_MS, jitterMs: JITTER_MS });
const requestsOn = (counts, paths) => paths.reduce((sum, path) => sum + (counts[path] ?? 0), 0);
async function runCeiling(retrieval, records) {
  const emulator = await startEmulator(densityFor(records));
  try {
    const { start, end } = windowOf();
    const result = await runNode(scratch, [
      join(root, "bench", "ceiling.js"),
      ...["--base-url", emulator.url, "--mode", retrieval.mode, "--start", start, "--end", end],
      ...["--page-size", String(PAGE_SIZE), "--concurrency", String(CONCURRENCY)],
      ...["--app-types", APP_TYPES.join(",")],
    ]);
    const out = JSON.parse(result.stdout.trim().split("\n").pop());
    const counts = await emulator.stop();
    return {
      name: `${retrieval.id}/ceiling`,
      records: out.records,
      seconds: result.seconds,
      recordsPerSecond: out.records / result.seconds,
      cpuSeconds: result.cpuSeconds,
      peakRssMb: result.peakRssMb,
      wireMbPerSecond: out.bytes / 1e6 / result.seconds,
      requests: serviceRequests(counts),
      pagingRequests: requestsOn(counts, retrieval.paths),
    };
  } catch (error) {
    await emulator.stop();
    throw error;
  }
}

/** The exporter on a fresh emulator; `hours` > HOURS keeps the density of RECORDS and widens the window. */
async function runExporter(retrieval, format, records, { profileDir, hours = HOURS } = {}) {
  const emulator = await startEmulator(densityFor(hours === HOURS ? records : RECORDS));
  const dir = mkdtempSync(join(scratch, `${retrieval.id}-${format.id}-`));
  const out = join(dir, "out");
  const pipeline = join(dir, "pipeline.yaml");
  const { start, end } = windowOf(hours);
  writeFileSync(
    pipeline,
    pipelineYaml({
      name: `bench-${retrieval.id}-${format.id}`,
      kind: retrieval.kind,
      appTypes: APP_TYPES,
      start,
      end,
      strategy: retrieval.strategy,
      pageSize: PAGE_SIZE,
      sink: format.sink,
      out,
      concurrency: CONCURRENCY,
    }),
  );
  try {
    const profile = profileDir === undefined ? [] : ["--cpu-prof", "--cpu-prof-dir", profileDir];
    const result = await runNode(scratch, [...profile, CLI, "run", pipeline, "--log-level", "warn"], {
      env: emulatorEnv(emulator.url),
    });
    const counts = await emulator.stop();
    const written = writtenRecords(result.stdout);
    const bytes = dataBytes(out);
    return {
      name: `${retrieval.id}/${format.id}`,
      records: written,
      seconds: result.seconds,
      recordsPerSecond: written / result.seconds,
      cpuSeconds: result.cpuSeconds,
      peakRssMb: result.peakRssMb,
      outputMb: bytes / 1e6,
      outputMbPerSecond: bytes / 1e6 / result.seconds,
      requests: serviceRequests(counts),
      pagingRequests: requestsOn(counts, retrieval.paths),
      counts,
    };
  } catch (error) {
    await emulator.stop();
    throw error;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const scratch = mkdtempSync(join(tmpdir(), "mdq-bench-"));
const startedAt = Date.now();
const results = {
  date: new Date().toISOString(),
  machine: {
    cpu: cpus()[0]?.model ?? "unknown",
    cores: cpus().length,
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
  },
  settings: {
    records: RECORDS,
    pageSize: PAGE_SIZE,
    concurrency: CONCURRENCY,
    latencyMs: LATENCY_MS,
    jitterMs: JITTER_MS,
    window: `${HOURS} slices of 1h`,
    streams: `${DOMAINS} domains × ${APP_TYPES.length} app types`,
  },
  rows: [],
  growth: undefined,
  largePages: undefined,
};
// A scenario not run this time keeps the figures of the run before, marked with that run's date.
const previous = (() => {
  try {
    return JSON.parse(readFileSync(join(root, "bench", "results", "latest.json"), "utf8"));
  } catch {
    return undefined;
  }
})();

try {
  for (const retrieval of runSmallPages ? RETRIEVALS : []) {
    const formats = FORMATS.filter((format) => selected(`${retrieval.id}/${format.id}`));
    if (formats.length === 0) continue;
    const ceiling = await runCeiling(retrieval, RECORDS);
    results.rows.push(ceiling);
    console.error(
      `${ceiling.name}: ${fmt(ceiling.recordsPerSecond)} records/s, ${fmt(ceiling.requests)} requests`,
    );
    for (const format of formats) {
      const row = await runExporter(retrieval, format, RECORDS, { profileDir: values["cpu-prof"] });
      row.ratio = row.recordsPerSecond / ceiling.recordsPerSecond;
      row.target = format.target;
      row.pagingMinimum = ceiling.requests;
      row.recordsMatchCeiling = row.records === ceiling.records;
      results.rows.push(row);
      console.error(
        `${row.name}: ${fmt(row.recordsPerSecond)} records/s (${fmt(row.ratio, 2)} of ceiling), ${fmt(row.cpuSeconds, 1)} CPU s, ${fmt(row.peakRssMb)} MB peak, ${fmt(row.requests)} requests`,
      );
    }
  }
  if (values.growth !== undefined) {
    // Flat memory: the same export over a window as many times longer (same density, same slices),
    // so the records grow and nothing else; peak RSS should barely move.
    const [retrievalId, formatId] = (values.only?.split(",")[0] ?? "jobs-pit/parquet").split("/");
    const retrieval = RETRIEVALS.find((r) => r.id === retrievalId) ?? RETRIEVALS[0];
    const format = FORMATS.find((f) => f.id === formatId) ?? FORMATS[2];
    const small = results.rows.find((row) => row.name === `${retrieval.id}/${format.id}`);
    const hours = Math.round((HOURS * Number(values.growth)) / RECORDS);
    const large = await runExporter(retrieval, format, Number(values.growth), { hours });
    results.growth = {
      name: large.name,
      how: `the same density over ${hours} one-hour slices instead of ${HOURS}`,
      small: small === undefined ? undefined : { records: small.records, peakRssMb: small.peakRssMb },
      large: { records: large.records, peakRssMb: large.peakRssMb, recordsPerSecond: large.recordsPerSecond },
      growth: small === undefined ? undefined : large.peakRssMb / small.peakRssMb - 1,
    };
    console.error(`growth ${large.name}: ${JSON.stringify(results.growth)}`);
  }
  if (runLarge) {
    results.largePages = await runLargePages({
      records: values.quick ? 50_000 : Number(values["large-records"]),
      pageSize: 10_000,
      concurrency: CONCURRENCY,
      rounds: values.quick ? 1 : Number(values.rounds),
      elasticdump: values.elasticdump,
      before: values.before,
      pin: values.pin,
      growth: values["large-growth"]?.split(",").map(Number),
      scratch,
      log: (line) => console.error(line),
    });
    results.largePages.date = results.date;
  }
  if (runState) {
    results.stateHistory = await runStateHistory({
      slices: Number(values["state-slices"]),
      scratch,
      log: (line) => console.error(line),
    });
    results.stateHistory.date = results.date;
  }
  if (values["cpu-prof"] !== undefined) {
    for (const file of readdirSync(values["cpu-prof"]).filter((name) => name.endsWith(".cpuprofile"))) {
      console.error(`\n${file}\n${summarizeProfile(join(values["cpu-prof"], file), 20)}`);
    }
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

results.totalSeconds = (Date.now() - startedAt) / 1000;
if (!runSmallPages && previous !== undefined) {
  for (const key of ["settings", "rows", "growth"]) results[key] = previous[key];
  results.smallPagesDate = previous.smallPagesDate ?? previous.date;
}
if (!runLarge && previous?.largePages !== undefined) results.largePages = previous.largePages;
if (!runState && previous?.stateHistory !== undefined) results.stateHistory = previous.stateHistory;
const table = markdown(results);
console.log(table);
if (!values["no-write"]) {
  mkdirSync(join(root, "bench", "results"), { recursive: true });
  writeFileSync(join(root, "bench", "results", "latest.json"), `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(join(root, "bench", "RESULTS.md"), resultsPage(results, table));
}
