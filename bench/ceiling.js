// The ceiling: the least a client can do to page the same queries as the exporter, with the same page
// size and the same slice concurrency. Each page is fetched with node:http over keep-alive connections,
// its bytes joined once and parsed with one JSON.parse (batch partitions: gunzipped and parsed line by
// line); its hits are counted and thrown away. Nothing else runs per page: a ceiling that spends more
// than it must flatters everything measured against it. Run by bench/run.js in its own process; prints
// one JSON line: { records, requests, bytes }.
// node bench/ceiling.js --base-url URL --mode pit|scroll|batch --start ISO --end ISO --slice-hours 1
//   --page-size 1000 --concurrency 4 --app-types ec2,kubernetes [--client-id ID --client-secret S]
import { Buffer } from "node:buffer";
import http from "node:http";
import { parseArgs } from "node:util";
import { URLSearchParams } from "node:url";
import { createGunzip } from "node:zlib";
import { setTimeout as sleep } from "node:timers/promises";
import pLimit from "p-limit";

const { values } = parseArgs({
  options: {
    "base-url": { type: "string" },
    mode: { type: "string" },
    start: { type: "string" },
    end: { type: "string" },
    "slice-hours": { type: "string", default: "1" },
    "page-size": { type: "string", default: "1000" },
    concurrency: { type: "string", default: "4" },
    "downloads-per-slice": { type: "string", default: "4" },
    "app-types": { type: "string", default: "ec2,kubernetes" },
    "client-id": { type: "string", default: "mdq-demo" },
    "client-secret": { type: "string", default: "mdq-demo-secret" },
  },
});

const baseUrl = values["base-url"];
const pageSize = Number(values["page-size"]);
const appTypes = values["app-types"].split(",");
let requests = 0;
let records = 0;
let bytes = 0;

const agent = new http.Agent({ keepAlive: true, maxSockets: Number(values.concurrency) * 4 });

/** One request's whole response body, as bytes. */
function send(url, method, headers, body) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers, agent }, (res) => {
      const chunks = [];
      res.on("data", (chunk) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode, body: Buffer.concat(chunks) }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });
}

async function token() {
  const form = new URLSearchParams({
    grant_type: "client_credentials",
    client_id: values["client-id"],
    client_secret: values["client-secret"],
  });
  const response = await send(
    `${baseUrl}/oauth2/token`,
    "POST",
    { "content-type": "application/x-www-form-urlencoded" },
    form.toString(),
  );
  return JSON.parse(response.body.toString("utf8")).access_token;
}

const bearer = await token();

async function post(path, body) {
  requests++;
  const response = await send(
    `${baseUrl}${path}`,
    "POST",
    { "content-type": "application/json", authorization: `Bearer ${bearer}` },
    JSON.stringify(body),
  );
  bytes += response.body.length;
  if (response.status !== 200)
    throw new Error(`${path}: HTTP ${response.status} ${response.body.toString("utf8", 0, 200)}`);
  return JSON.parse(response.body.toString("utf8"));
}

function slices() {
  const out = [];
  const step = Number(values["slice-hours"]) * 3_600_000;
  const end = Date.parse(values.end);
  for (let at = Date.parse(values.start); at < end; at += step) {
    out.push({
      start_time: new Date(at).toISOString(),
      end_time: new Date(Math.min(end, at + step)).toISOString(),
    });
  }
  return out;
}

async function pitSlice(bounds) {
  let body = { application: "atr", app_type: appTypes, domain: ["*"], ...bounds, size: pageSize };
  for (;;) {
    const page = await post("/v3/jobs/query", body);
    records += page.data.hits.length;
    const { pit_id: pitId, search_after: searchAfter } = page.meta.pagination;
    if (pitId === null || searchAfter === null || page.data.hits.length === 0) return;
    body = { pit_id: pitId, search_after: searchAfter, size: pageSize };
  }
}

async function scrollSlice(bounds) {
  for (const appType of appTypes) {
    let body = { application: "atr", app_type: appType, domain: ["*"], ...bounds, size: pageSize };
    for (;;) {
      const page = await post("/v2/logs/scroll", body);
      records += page.data.logs.length;
      const scrollId = page.meta.scroll_id;
      if (scrollId === undefined || scrollId === "" || page.data.logs.length === 0) break;
      body = { scroll_id: scrollId };
    }
  }
}

async function download(url) {
  requests++;
  const response = await new Promise((resolve, reject) =>
    http.get(url, { agent }, resolve).on("error", reject),
  );
  if (response.statusCode !== 200) throw new Error(`download: HTTP ${response.statusCode}`);
  let carry = "";
  const lines = response.pipe(createGunzip());
  for await (const chunk of lines) {
    bytes += chunk.length;
    const text = carry + chunk.toString("utf8");
    let from = 0;
    for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", from)) {
      if (at > from) {
        JSON.parse(text.slice(from, at));
        records++;
      }
      from = at + 1;
    }
    carry = text.slice(from);
  }
  if (carry.trim() !== "") {
    JSON.parse(carry);
    records++;
  }
}

async function batchSlice(bounds) {
  const downloads = pLimit(Number(values["downloads-per-slice"]));
  for (const appType of appTypes) {
    const created = await post("/v2/logs/batch", {
      application: "atr",
      app_type: appType,
      domain: ["*"],
      ...bounds,
    });
    for (;;) {
      const status = await post("/v2/logs/batch/status", { token: created.data.token });
      const partitions = status.presigned_urls;
      if (partitions.every((p) => p.completed)) {
        await Promise.all(partitions.map((p) => downloads(() => download(p.presigned_url))));
        break;
      }
      // Not reached when the emulator runs with --ready-after-polls 0, as the benchmark starts it.
      await sleep(100);
    }
  }
}

const perSlice = { pit: pitSlice, scroll: scrollSlice, batch: batchSlice }[values.mode];
if (perSlice === undefined) throw new Error(`--mode: "${values.mode}" is not one of pit, scroll, batch`);
const limit = pLimit(Number(values.concurrency));
await Promise.all(slices().map((bounds) => limit(() => perSlice(bounds))));
process.stdout.write(`${JSON.stringify({ records, requests, bytes })}\n`);
