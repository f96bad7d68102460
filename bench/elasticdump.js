// elasticdump (installed outside the project) on the same records, for comparison: a small
// Elasticsearch-scroll shim in this process turns `_search?scroll` and `_search/scroll` into the
// emulator's v3 point-in-time paging of one slice per index name (`jobs-<startMs>-<endMs>`), passing
// the hits' bytes through untouched. elasticdump scrolls one index at a time, so it runs as one
// process over the whole window (as a user would run it), preloaded with the usage hook. Prints one
// JSON line: records, bytes, CPU seconds and peak RSS of the elasticdump process.
// node bench/elasticdump.js --bin PATH --base-url URL --start ISO --end ISO --page-size 10000
//   --app-types ec2,kubernetes --out DIR
import { Buffer } from "node:buffer";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { readFileSync, readdirSync, statSync } from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { request } from "undici";
import { root } from "./harness.js";

const { values } = parseArgs({
  options: {
    bin: { type: "string" },
    "base-url": { type: "string" },
    start: { type: "string" },
    end: { type: "string" },
    "page-size": { type: "string", default: "10000" },
    "app-types": { type: "string", default: "ec2,kubernetes" },
    out: { type: "string" },
  },
});
const baseUrl = values["base-url"];
const HOOK = join(root, "bench", "usage-hook.js");

const tokenResponse = await request(`${baseUrl}/oauth2/token`, {
  method: "POST",
  headers: { "content-type": "application/x-www-form-urlencoded" },
  body: "grant_type=client_credentials&client_id=mdq-demo&client_secret=mdq-demo-secret",
});
const bearer = (await tokenResponse.body.json()).access_token;

/** One emulator page, re-wrapped as an Elasticsearch scroll answer without parsing the hits. */
async function page(body) {
  const response = await request(`${baseUrl}/v3/jobs/query`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${bearer}` },
    body: JSON.stringify(body),
  });
  const text = await response.body.text();
  if (response.statusCode !== 200) throw new Error(`emulator: HTTP ${response.statusCode} ${text}`);
  const prefix = '{"data":{"hits":';
  const end = text.lastIndexOf('],"total":');
  if (!text.startsWith(prefix) || end < 0) throw new Error("unexpected emulator page layout");
  const tail = JSON.parse(`{"data":{"hits":[]${text.slice(end + 1)}`);
  const { pit_id: pitId, search_after: searchAfter } = tail.meta.pagination;
  const scrollId = Buffer.from(JSON.stringify({ pitId, searchAfter, total: tail.data.total })).toString(
    "base64url",
  );
  const hits = text.slice(prefix.length, end + 1);
  return `{"_scroll_id":"${scrollId}","hits":{"total":{"value":${tail.data.total},"relation":"eq"},"hits":${hits}}}`;
}

const empty = (scrollId, total) =>
  `{"_scroll_id":"${scrollId}","hits":{"total":{"value":${total},"relation":"eq"},"hits":[]}}`;

const server = createServer(async (req, res) => {
  let raw = "";
  for await (const chunk of req) raw += chunk;
  const url = new URL(req.url, "http://shim");
  const answer = (status, text) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(text);
  };
  try {
    if (url.pathname === "/" && req.method !== "DELETE") {
      return answer(200, '{"version":{"number":"7.17.0","build_flavor":"default"},"tagline":"shim"}');
    }
    if (url.pathname === "/_search/scroll" && req.method === "DELETE") return answer(200, "{}");
    const slice = /^\/jobs-(\d+)-(\d+)\/_search$/.exec(url.pathname);
    if (slice !== null) {
      const size = JSON.parse(raw || "{}").size ?? Number(values["page-size"]);
      return answer(
        200,
        await page({
          application: "atr",
          app_type: values["app-types"].split(","),
          domain: ["*"],
          start_time: new Date(Number(slice[1])).toISOString(),
          end_time: new Date(Number(slice[2])).toISOString(),
          size,
        }),
      );
    }
    if (url.pathname === "/_search/scroll") {
      const parsed = raw.trim().startsWith("{") ? JSON.parse(raw).scroll_id : raw.trim();
      const cursor = JSON.parse(Buffer.from(parsed, "base64url").toString("utf8"));
      if (cursor.pitId === null || cursor.searchAfter === null)
        return answer(200, empty(parsed, cursor.total));
      const body = {
        pit_id: cursor.pitId,
        search_after: cursor.searchAfter,
        size: Number(values["page-size"]),
      };
      return answer(200, await page(body));
    }
    answer(404, `{"error":"shim: ${req.method} ${url.pathname} is not served"}`);
  } catch (error) {
    answer(500, JSON.stringify({ error: String(error) }));
  }
});
server.listen(0, "127.0.0.1");
await once(server, "listening");
const shim = `http://127.0.0.1:${server.address().port}`;

async function dump(startMs, endMs, index) {
  const usageFile = join(values.out, `usage-${index}.json`);
  const child = spawn(
    process.execPath,
    [
      "--import",
      HOOK,
      values.bin,
      `--input=${shim}/jobs-${startMs}-${endMs}`,
      `--output=${join(values.out, `slice-${index}.ndjson`)}`,
      "--type=data",
      `--limit=${values["page-size"]}`,
      "--scrollTime=5m",
      "--quiet",
    ],
    { env: { ...process.env, MDQ_BENCH_USAGE_FILE: usageFile }, stdio: ["ignore", "ignore", "pipe"] },
  );
  let stderr = "";
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const [code] = await once(child, "exit");
  if (code !== 0) throw new Error(`elasticdump exited ${code}: ${stderr.slice(-1000)}`);
  return JSON.parse(readFileSync(usageFile, "utf8"));
}

const usages = [await dump(Date.parse(values.start), Date.parse(values.end), 0)];
server.close();

let records = 0;
let bytes = 0;
for (const name of readdirSync(values.out).filter((file) => file.endsWith(".ndjson"))) {
  const path = join(values.out, name);
  bytes += statSync(path).size;
  const text = readFileSync(path, "utf8");
  for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) records++;
}
const cpuSeconds = usages.reduce((sum, u) => sum + u.userSeconds + u.systemSeconds, 0);
const peakRssMb = Math.max(...usages.map((u) => u.maxRssKb / 1024));
process.stdout.write(
  `${JSON.stringify({ records, bytes, cpuSeconds, peakRssMb, processes: usages.length })}\n`,
);
