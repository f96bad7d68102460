// Measures how fast the emulator serves pages over real HTTP on one core: v3 point-in-time pages of
// 10,000 jobs and v2 scroll pages of logs. Run `npm run build` first; prints records per second.
// The emulator runs in a worker thread (one thread, so at most one core); the client in the main
// thread does as little as it can. Besides wall-clock records/s, it reports records per CPU-second of
// the emulator thread (Linux), which is what one dedicated core serves on a busy machine.
import { Buffer } from "node:buffer";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { URLSearchParams } from "node:url";
import { Worker, isMainThread, parentPort, workerData } from "node:worker_threads";
import { request } from "undici";
import { startEmulator } from "../dist/emulator/server.js";

/** CPU seconds this thread has used, or undefined where /proc/thread-self is not available. */
function threadCpuSeconds() {
  try {
    const fields = readFileSync("/proc/thread-self/stat", "utf8").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

if (!isMainThread) {
  const emulator = await startEmulator(workerData);
  parentPort.postMessage({
    url: emulator.url,
    clientId: emulator.clientId,
    clientSecret: emulator.clientSecret,
  });
  parentPort.on("message", (message) => {
    if (message === "cpu") parentPort.postMessage({ cpu: threadCpuSeconds() });
    else void emulator.close().then(() => process.exit(0));
  });
}

async function emulatorCpu(worker) {
  worker.postMessage("cpu");
  const [{ cpu }] = await once(worker, "message");
  return cpu;
}

const RECORDS = Number(process.env.BENCH_RECORDS ?? 300_000);
const PAGE = 10_000;
const ID = Buffer.from('"_id":');
const META = Buffer.from('"meta":');

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
  const bytes = Buffer.from(await response.body.arrayBuffer());
  if (response.statusCode !== 200)
    throw new Error(`${path}: HTTP ${response.statusCode} ${bytes.toString("utf8", 0, 200)}`);
  // The client does as little as it can, so that the figure is the emulator's: hits are counted on the
  // raw bytes (a raw `"_id":` cannot occur inside a JSON string) and only the envelope's meta is parsed.
  let count = 0;
  for (let at = bytes.indexOf(ID); at !== -1; at = bytes.indexOf(ID, at + ID.length)) count++;
  const meta = JSON.parse(bytes.toString("utf8", bytes.lastIndexOf(META) + META.length, bytes.length - 1));
  return { meta, count, bytes: bytes.length };
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
if (isMainThread) {
  const worker = new Worker(new URL(import.meta.url), { workerData: { density, seed: 1 } });
  const [emulator] = await once(worker, "message");
  try {
    const bearer = await token(emulator);
    const rows = [];
    for (const [name, run] of [
      ["v3 jobs point-in-time, pages of 10,000", pitJobs],
      ["v2 logs scroll, pages of 10,000", scrollLogs],
    ]) {
      await run(emulator, bearer, density); // warm-up pass
      const cpuBefore = await emulatorCpu(worker);
      const result = await run(emulator, bearer, density);
      const cpu = (await emulatorCpu(worker)) - cpuBefore;
      rows.push({
        benchmark: name,
        records: result.records,
        "records/s": Math.round(result.records / result.seconds),
        "records/cpu-s": Number.isFinite(cpu) && cpu > 0 ? Math.round(result.records / cpu) : "n/a",
        "MB/s": Number((result.bytes / 1e6 / result.seconds).toFixed(1)),
      });
    }
    console.table(rows);
  } finally {
    worker.postMessage("close");
    await once(worker, "exit");
  }
}
