// Micro-benchmark of src/decoding/hit-bytes.ts: CPU per hit of `readHitBytes` (one pass over a
// hit's bytes, no object built) against `JSON.parse(bytes.toString("utf8", start, end))`, the parse
// the hit stream does today, with and without its shape check. Not part of `npm run bench`.
//
//   npm run build --silent && node bench/hit-bytes.js [--repetitions 15]
//
// It starts the emulator in this process (seed 7, density 3,300), fetches one page of 10,000 jobs
// from /v3/jobs/query and one of 10,000 logs from /v2/logs/scroll over HTTP, finds each hit's bytes
// in the page with the product's HitScanner, and then, for each way of reading, reads every hit of
// the page: three warm-up passes, then `--repetitions` timed passes with process.cpuUsage (user +
// system). It prints the median and the fastest pass in µs per hit; only the reading is timed. Each
// way runs twice: results dropped at once, and the last 1,000 held (a batch of the hit stream), so
// that the collector's cost of what each way allocates shows.
import { Buffer } from "node:buffer";
import { URLSearchParams } from "node:url";
import { parseArgs } from "node:util";
import { request } from "undici";
import { HitScanner } from "../dist/decoding/hit-scanner.js";
import { HIT_BATCH_SIZE } from "../dist/decoding/hit-stream.js";
import { V3_HITS, v2HitArray } from "../dist/api/hit-arrays.js";
import { readHitBytes } from "../dist/decoding/hit-bytes.js";
import { startEmulator } from "../dist/emulator/server.js";

const { values: args } = parseArgs({ options: { repetitions: { type: "string", default: "15" } } });
const REPETITIONS = Number(args.repetitions);
const WINDOW = { start_time: "2026-03-01T00:00:00Z", end_time: "2026-03-01T15:00:00Z" };

async function post(url, path, body, headers) {
  const response = await request(`${url}${path}`, { method: "POST", headers, body });
  const bytes = Buffer.from(await response.body.arrayBuffer());
  if (response.statusCode !== 200)
    throw new Error(`${path}: HTTP ${response.statusCode} ${bytes.toString("utf8", 0, 200)}`);
  return bytes;
}

async function fetchPages() {
  const emulator = await startEmulator({ seed: 7, density: 3300, port: 0 });
  try {
    const form = new URLSearchParams({
      grant_type: "client_credentials",
      client_id: "mdq-demo",
      client_secret: "mdq-demo-secret",
    });
    const tokenBytes = await post(emulator.url, "/oauth2/token", form.toString(), {
      "content-type": "application/x-www-form-urlencoded",
    });
    const headers = {
      "content-type": "application/json",
      authorization: `Bearer ${JSON.parse(tokenBytes.toString()).access_token}`,
    };
    const query = { application: "atr", app_type: ["ec2", "kubernetes"], domain: ["*"], ...WINDOW };
    const jobs = await post(
      emulator.url,
      "/v3/jobs/query",
      JSON.stringify({ ...query, size: 10_000 }),
      headers,
    );
    const logsQuery = { ...query, app_type: "ec2", size: 10_000 };
    const logs = await post(emulator.url, "/v2/logs/scroll", JSON.stringify(logsQuery), headers);
    return { jobs, logs };
  } finally {
    await emulator.close();
  }
}

/** Each hit's [start, end) in the page, as the hit stream's scanner finds them. */
function hitRanges(page, path) {
  const ranges = [];
  const scanner = new HitScanner(path, (hit) => ranges.push(hit.start, hit.end));
  scanner.push(page);
  scanner.end();
  // The scanner reads its own copy of the page, pushed as one chunk: the offsets are the page's.
  return ranges;
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * µs of CPU per hit, median and fastest over the timed passes. With `held`, the last `held` results
 * stay reachable, as a batch of hits does in the hit stream, so the collector pays to keep them.
 */
function time(read, page, ranges, held) {
  let sink = 0;
  const kept = new Array(held);
  const pass = () => {
    for (let k = 0; k < ranges.length; k += 2) {
      const result = read(page, ranges[k], ranges[k + 1]);
      if (held > 0) kept[(k >> 1) % held] = result;
      sink += result ? 1 : 0;
    }
  };
  for (let w = 0; w < 3; w++) pass();
  const perHit = [];
  for (let r = 0; r < REPETITIONS; r++) {
    const before = process.cpuUsage();
    pass();
    const used = process.cpuUsage(before);
    perHit.push((used.user + used.system) / (ranges.length / 2));
  }
  if (sink === 0) throw new Error("nothing was read");
  return { median: median(perHit), fastest: Math.min(...perHit) };
}

const pages = await fetchPages();
const CASES = [
  { kind: "jobs", page: pages.jobs, operation: "/v3/jobs/query", shape: "v3Hit" },
  { kind: "logs", page: pages.logs, operation: "/v2/logs/scroll", shape: "hit" },
];
console.log("| hits | count | bytes/hit | way of reading | µs/hit median | fastest | × readHitBytes |");
console.log("| --- | ---: | ---: | --- | ---: | ---: | ---: |");
for (const { kind, page, operation, shape } of CASES) {
  const target = operation === "/v3/jobs/query" ? V3_HITS : v2HitArray("logs");
  const ranges = hitRanges(page, target.path);
  const count = ranges.length / 2;
  for (let k = 0; k < ranges.length; k += 2) {
    const result = readHitBytes(page, ranges[k], ranges[k + 1], shape);
    if (!result.ok) throw new Error(`${kind} hit ${k / 2} refused: ${result.reason}`);
  }
  const ways = [
    ["readHitBytes", (bytes, start, end) => readHitBytes(bytes, start, end, shape)],
    ["JSON.parse", (bytes, start, end) => JSON.parse(bytes.toString("utf8", start, end))],
    [
      "JSON.parse + shape check",
      (bytes, start, end) => {
        const hit = JSON.parse(bytes.toString("utf8", start, end));
        return target.accepts(hit) && hit;
      },
    ],
  ];
  for (const held of [0, HIT_BATCH_SIZE]) {
    const timings = ways.map(([name, read]) => [name, time(read, page, ranges, held)]);
    const base = timings[0][1].median;
    for (const [name, { median: med, fastest }] of timings) {
      const way = held > 0 ? `${name}, last ${held} held` : name;
      const row = [kind, count, Math.round(page.length / count), way, med.toFixed(3), fastest.toFixed(3)];
      console.log(`| ${row.join(" | ")} | ${(med / base).toFixed(2)} |`);
    }
  }
}
