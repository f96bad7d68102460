// Measures how fast the emulator serves pages over real HTTP on one core: v3 point-in-time pages of
// 10,000 jobs and v2 scroll pages of logs. Run `npm run build` first; prints records per second.
// The emulator runs in a worker thread (its own single thread, i.e. one core), so the client's JSON
// parsing in the main thread is not counted against it.
import { once } from "node:events";
import { Worker, isMainThread, parentPort, workerData } from "node:worker_threads";
import { request } from "undici";
import { startEmulator } from "../dist/emulator/server.js";

if (!isMainThread) {
  const emulator = await startEmulator(workerData);
  parentPort.postMessage({
    url: emulator.url,
    clientId: emulator.clientId,
    clientSecret: emulator.clientSecret,
  });
  parentPort.once("message", () => emulator.close().then(() => process.exit(0)));
}

const RECORDS = Number(process.env.BENCH_RECORDS ?? 300_000);
const PAGE = 10_000;

async function token(emulator) {
  const form = new URLSearchParams({
    grant_type: "client_credentials",
    client_id: emulator.clientId,
    client_secret: emulator.clientSecret,
  });
  const response = await request(`${emulator.url}/oauth2/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: form.toString(),
  });
  return (await response.body.json()).access_token;
}

async function post(emulator, bearer, path, body) {
  const response = await request(`${emulator.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${bearer}` },
    body: JSON.stringify(body),
  });
  const text = await response.body.text();
  if (response.statusCode !== 200)
    throw new Error(`${path}: HTTP ${response.statusCode} ${text.slice(0, 200)}`);
  // Only the envelope's tail is parsed: the benchmark measures the emulator, not the client's JSON.parse.
  const meta = JSON.parse(text.slice(text.lastIndexOf('"meta":') + 7, -1));
  // A raw `"_id":` cannot occur inside a JSON string (quotes are escaped), so this counts the hits.
  const count = text.split('"_id":').length - 1;
  return { meta, count, bytes: text.length };
}

/** Enough hours of one domain at the given density to hold RECORDS records. */
function window(density) {
  const hours = Math.ceil(RECORDS / density) + 1;
  const start = Date.parse("2026-03-01T00:00:00Z");
  return {
    start_time: new Date(start).toISOString(),
    end_time: new Date(start + hours * 3_600_000).toISOString(),
  };
}

async function pitJobs(emulator, bearer, density) {
  let body = {
    application: "atr",
    ...window(density),
    app_type: ["ec2"],
    domain: ["bench.example"],
    size: PAGE,
  };
  let records = 0;
  let bytes = 0;
  const started = process.hrtime.bigint();
  while (records < RECORDS) {
    const { meta, count, bytes: size } = await post(emulator, bearer, "/v3/jobs/query", body);
    records += count;
    bytes += size;
    const { pit_id: pitId, search_after: searchAfter } = meta.pagination;
    if (!pitId) break;
    body = { pit_id: pitId, search_after: searchAfter, size: PAGE };
  }
  return { records, bytes, seconds: Number(process.hrtime.bigint() - started) / 1e9 };
}

async function scrollLogs(emulator, bearer, density) {
  let body = {
    application: "atr",
    ...window(density),
    app_type: "ec2",
    domain: ["bench.example"],
    size: PAGE,
  };
  let records = 0;
  let bytes = 0;
  const started = process.hrtime.bigint();
  while (records < RECORDS) {
    const { meta, count, bytes: size } = await post(emulator, bearer, "/v2/logs/scroll", body);
    records += count;
    bytes += size;
    if (!meta.scroll_id) break;
    body = { scroll_id: meta.scroll_id };
  }
  return { records, bytes, seconds: Number(process.hrtime.bigint() - started) / 1e9 };
}

const density = 50_000;
const worker = isMainThread
  ? new Worker(new URL(import.meta.url), { workerData: { density, seed: 1 } })
  : undefined;
const [emulator] = worker ? await once(worker, "message") : [undefined];
if (worker)
  try {
    const bearer = await token(emulator);
    const rows = [];
    for (const [name, run] of [
      ["v3 jobs point-in-time, pages of 10,000", pitJobs],
      ["v2 logs scroll, pages of 10,000", scrollLogs],
    ]) {
      await run(emulator, bearer, density); // warm-up pass
      const result = await run(emulator, bearer, density);
      rows.push({
        benchmark: name,
        records: result.records,
        "records/s": Math.round(result.records / result.seconds),
        "MB/s": Number((result.bytes / 1e6 / result.seconds).toFixed(1)),
      });
    }
    console.table(rows);
  } finally {
    worker.postMessage("close");
    await once(worker, "exit");
  }
