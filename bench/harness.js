// What every benchmark scenario shares: programs run in their own process with the usage hook, the
// emulator started as its own process, the generated pipeline, and the bytes of an output.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

export const root = dirname(dirname(fileURLToPath(import.meta.url)));
export const CLI = join(root, "dist", "cli", "main.js");
const HOOK = join(root, "bench", "usage-hook.js");

/**
 * Runs `node args` to its end with the usage hook (`prefix` such as `taskset -c 0` goes before node);
 * returns wall seconds, CPU seconds and peak RSS of the process, stdout and stderr.
 */
export async function runNode(scratch, args, { env = {}, prefix = [] } = {}) {
  const usageFile = join(scratch, `usage-${Math.random().toString(36).slice(2)}.json`);
  const started = process.hrtime.bigint();
  const command = [...prefix, process.execPath, "--import", HOOK, ...args];
  const child = spawn(command[0], command.slice(1), {
    cwd: root,
    env: { ...process.env, ...env, MDQ_BENCH_USAGE_FILE: usageFile },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const [code] = await once(child, "exit");
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (code !== 0) throw new Error(`${command.join(" ")} exited ${code}\n${stderr.slice(-2000)}`);
  const usage = JSON.parse(readFileSync(usageFile, "utf8"));
  return {
    seconds,
    cpuSeconds: usage.userSeconds + usage.systemSeconds,
    peakRssMb: usage.maxRssKb / 1024,
    stdout,
    stderr,
  };
}

/**
 * Starts `mdq-export emulator` in its own process; `stop()` ends it and returns its request counts.
 * Batch exports are ready at the first status poll: the benchmark measures transfer, not preparation.
 */
export async function startEmulator({ density, latencyMs, jitterMs }) {
  const args = [CLI, "emulator", "--port", "0", "--seed", "7", "--density", String(density)];
  args.push("--latency-ms", String(latencyMs), "--jitter-ms", String(jitterMs));
  args.push("--ready-after-polls", "0", "--quota", "1000000", "--report-requests");
  const child = spawn(process.execPath, args, { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const url = await new Promise((resolve, reject) => {
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(stdout);
      if (match) resolve(match[1]);
    });
    child.once("exit", (code) => reject(new Error(`the emulator exited ${code}: ${stderr}`)));
  });
  return {
    url,
    async stop() {
      child.kill("SIGINT");
      await once(child, "exit");
      const line = stderr.split("\n").find((text) => text.startsWith('{"requests"'));
      return line === undefined ? {} : JSON.parse(line).requests;
    },
  };
}

export const serviceRequests = (counts) =>
  Object.entries(counts).reduce((sum, [path, n]) => sum + (path === "/oauth2/token" ? 0 : n), 0);

/** The pipeline the exporter runs: no transforms, one sink to a local directory. */
export function pipelineYaml({
  name,
  kind,
  appTypes,
  start,
  end,
  strategy,
  pageSize,
  sink,
  out,
  concurrency,
}) {
  const sinkText = Object.entries(sink)
    .map(([key, value]) => `${key}: ${JSON.stringify(value)}`)
    .join(", ");
  return [
    `name: ${name}`,
    "service:",
    "  base_url: ${MDQ_BASE_URL}",
    "  auth_url: ${MDQ_AUTH_URL}",
    "  client_id: ${MDQ_CLIENT_ID}",
    "  client_secret: ${MDQ_CLIENT_SECRET}",
    "source:",
    `  kind: ${kind}`,
    "  application: atr",
    `  app_type: [${appTypes.join(", ")}]`,
    '  domain: ["*"]',
    `  window: { start: ${start}, end: ${end}, slice: 1h }`,
    `  strategy: ${strategy}`,
    `  page_size: ${pageSize}`,
    "sinks:",
    `  - { ${sinkText}, to: ${JSON.stringify(out)} }`,
    `limits: { concurrency: ${concurrency} }`,
    "",
  ].join("\n");
}

/** The environment that points a generated pipeline at the emulator. */
export const emulatorEnv = (url) => ({
  MDQ_BASE_URL: url,
  MDQ_AUTH_URL: url,
  MDQ_CLIENT_ID: "mdq-demo",
  MDQ_CLIENT_SECRET: "mdq-demo-secret",
});

/** Records the CLI reports having written (`1,234 records in …`). */
export function writtenRecords(stdout) {
  const match = /([\d,]+) records in/.exec(stdout);
  return match === null ? Number.NaN : Number(match[1].replaceAll(",", ""));
}

/** Bytes of the data files under `dir` (state and manifests, named `_…`, left out). */
export function dataBytes(dir) {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath ?? entry.path, entry.name);
    if (relative(dir, path).startsWith("_") || entry.name.startsWith("_")) continue;
    total += statSync(path).size;
  }
  return total;
}

export const fmt = (n, digits = 0) =>
  Number.isFinite(n)
    ? n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits })
    : "–";

export const median = (values) => {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
