// The CPU and garbage of reading a page's Parquet column values two ways: the JSON.parse path (each
// hit parsed, checked, made a row with hitAsRow, its fields named by unknownFields, the rows appended
// to ColumnBuffers) and the hit columns reader (decoding/hit-columns-reader.ts: the values read from
// the hit's bytes). Not part of `npm run bench`.
//
// Run after `npm run build`: node bench/hit-columns.js [--rounds 20] [--warmup 5] [--only hit|JSON]
// It starts the emulator in this process (seed 7, density 3300), takes a token with the demo client,
// fetches ONE page of 10,000 jobs (`/v3/jobs/query`, atr, ec2 + kubernetes, 2026-03-01 00:00–15:00),
// closes the emulator, finds the hits' bytes with the paging stream's HitScanner, then alternates the
// two ways over that page: `--warmup` rounds each first, then `--rounds` rounds each measured with
// process.cpuUsage (user + system) and a PerformanceObserver counting garbage collections and their
// pause time. Prints a markdown table: µs of CPU per hit, GCs per page, GC ms per page.
import { Buffer } from "node:buffer";
import { PerformanceObserver } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";

const { fetch } = globalThis;

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const index = args.indexOf(`--${name}`);
  return index === -1 ? fallback : Number(args[index + 1]);
};
const ROUNDS = option("rounds", 20);
const WARMUP = option("warmup", 5);
/** `--only hit` or `--only JSON` measures one way (for a CPU profile of it alone). */
const ONLY = args.includes("--only") ? args[args.indexOf("--only") + 1] : undefined;

const { startEmulator } = await import("../dist/emulator/server.js");
const { HitScanner } = await import("../dist/decoding/hit-scanner.js");
const { V3_HITS } = await import("../dist/api/hit-arrays.js");
const { hitAsRow } = await import("../dist/kinds/source-spec.js");
const { hitColumns } = await import("../dist/kinds/hit-columns.js");
const { mappingFields } = await import("../dist/emulator/mappings.js");
const { columnsFromMappings } = await import("../dist/core/columns-from-mappings.js");
const { ColumnBuffers } = await import("../dist/formats/parquet/column-buffers.js");
const { fieldTree, unknownFields } = await import("../dist/pipeline/run/report-unknown-fields.js");
const { HitColumnsReader } = await import("../dist/decoding/hit-columns-reader.js");
const { parquetColumnCoercers } = await import("../dist/formats/parquet/coercers.js");

async function fetchPage() {
  const emulator = await startEmulator({ port: 0, seed: 7, density: 3300 });
  try {
    const grant = await fetch(`${emulator.url}/oauth2/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "grant_type=client_credentials&client_id=mdq-demo&client_secret=mdq-demo-secret",
    });
    const { access_token: token } = await grant.json();
    const response = await fetch(`${emulator.url}/v3/jobs/query`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({
        application: "atr",
        app_type: ["ec2", "kubernetes"],
        domain: ["*"],
        start_time: "2026-03-01T00:00:00Z",
        end_time: "2026-03-01T15:00:00Z",
        size: 10000,
      }),
    });
    if (!response.ok) throw new Error(`the page request answered ${response.status}`);
    return Buffer.from(await response.arrayBuffer());
  } finally {
    await emulator.close();
  }
}

const body = await fetchPage();
/** The hits' [start, end) in `window`, the scanner's one buffer when the body is pushed whole. */
const spans = [];
let window;
const scanner = new HitScanner(["data", "hits"], (element) => {
  window = element.bytes;
  spans.push(element.start, element.end);
});
scanner.push(body);
scanner.end();
const hits = spans.length / 2;
if (hits !== 10000) throw new Error(`the page holds ${hits} hits, not 10,000`);

const columns = hitColumns(
  columnsFromMappings([...mappingFields("jobs", "ec2"), ...mappingFields("jobs", "kubernetes")]),
  {},
);
const names = new Set(columns.map((column) => column.name));
const tree = fieldTree(names);
const accepts = V3_HITS.accepts;

/** What a Parquet page costs today: parse, check, row, unknown fields, column buffers. */
function parsePath() {
  const buffers = new ColumnBuffers(columns);
  const rows = new Array(hits);
  const unknown = new Set();
  for (let h = 0; h < hits; h++) {
    const hit = JSON.parse(window.toString("utf8", spans[2 * h], spans[2 * h + 1]));
    if (!accepts(hit)) throw new Error("a hit fails the check");
    const row = hitAsRow(hit);
    for (const name of unknownFields(row, names, tree)) unknown.add(name);
    rows[h] = row;
  }
  buffers.append({ kind: "rows", rows }, 0, hits);
  return buffers.take();
}

const reader = new HitColumnsReader(columns, true, parquetColumnCoercers);
/** The same page read by the hit columns reader. */
function readerPath() {
  const values = columns.map(() => []);
  const unknown = new Set();
  for (let h = 0; h < hits; h++) {
    const read = reader.read(window, spans[2 * h], spans[2 * h + 1], values);
    if (read.failure !== undefined) throw new Error(`the reader refused a hit: ${read.failure}`);
    for (const name of read.unknownFields) unknown.add(name);
  }
  return values;
}

// Both ways give the same values before anything is timed.
const expected = parsePath();
const got = readerPath();
for (let c = 0; c < columns.length; c++)
  for (let h = 0; h < hits; h++)
    if (!Object.is(expected[c][h], got[c][h]))
      throw new Error(`${columns[c].name} of hit ${h}: ${expected[c][h]} against ${got[c][h]}`);

let gcCount = 0;
let gcMs = 0;
const observer = new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    gcCount++;
    gcMs += entry.duration;
  }
});
observer.observe({ entryTypes: ["gc"] });

const ways = Object.fromEntries(
  Object.entries({
    "JSON.parse + hitAsRow + ColumnBuffers": parsePath,
    "hit columns reader": readerPath,
  }).filter(([name]) => ONLY === undefined || name.startsWith(ONLY)),
);
const totals = Object.fromEntries(Object.keys(ways).map((name) => [name, { cpu: 0, gcs: 0, gcMs: 0 }]));
for (let round = 0; round < WARMUP + ROUNDS; round++) {
  for (const [name, run] of Object.entries(ways)) {
    // GC entries arrive after a timer turn: let the previous round's land before counting this one's.
    await sleep(20);
    const gcsBefore = gcCount;
    const gcMsBefore = gcMs;
    const before = process.cpuUsage();
    run();
    const spent = process.cpuUsage(before);
    await sleep(20);
    if (round < WARMUP) continue;
    totals[name].cpu += spent.user + spent.system;
    totals[name].gcs += gcCount - gcsBefore;
    totals[name].gcMs += gcMs - gcMsBefore;
  }
}
observer.disconnect();

console.log(`${hits} jobs per page, ${columns.length} columns, ${body.length} bytes, ${ROUNDS} rounds`);
console.log("| way | µs CPU per hit | GCs per page | GC ms per page |");
console.log("| --- | ---: | ---: | ---: |");
for (const [name, total] of Object.entries(totals)) {
  const perHit = total.cpu / (ROUNDS * hits);
  console.log(
    `| ${name} | ${perHit.toFixed(2)} | ${(total.gcs / ROUNDS).toFixed(1)} | ${(total.gcMs / ROUNDS).toFixed(1)} |`,
  );
}
