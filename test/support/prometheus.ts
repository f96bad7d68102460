// A real Prometheus Pushgateway and a real Prometheus, started by the test suite on free loopback
// ports with temporary data folders and files, never the packages' defaults (Debian packages
// `prometheus-pushgateway` and `prometheus`; npm test's pretest, scripts/install-test-servers.sh,
// unpacks them into .test-servers/ where they are not on PATH, without installing or starting any
// service). Missing binaries fail the suite with how to get them: never a skip.
import { spawn, spawnSync } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { accessSync, constants } from "node:fs";
import { REPO_ROOT, waitFor } from "./cli-harness.js";

/** Where scripts/install-test-servers.sh unpacks the packages' binaries. */
export const TEST_SERVERS_BIN = join(REPO_ROOT, ".test-servers", "usr", "bin");

/** The first of `names` unpacked by the pretest, else found on PATH; throws naming the Debian package when none is. */
export function requireBinary(names: readonly string[], debianPackage: string): string {
  for (const name of names) {
    try {
      accessSync(join(TEST_SERVERS_BIN, name), constants.X_OK);
      return join(TEST_SERVERS_BIN, name);
    } catch {
      // Not unpacked here: PATH next.
    }
  }
  for (const name of names) {
    const found = spawnSync("sh", ["-c", `command -v ${name}`], { encoding: "utf8" });
    if (found.status === 0 && found.stdout.trim() !== "") return found.stdout.trim();
  }
  throw new Error(
    `${names.join(" or ")} is not installed; the observability tests need it: ` +
      `bash scripts/install-test-servers.sh unpacks ${debianPackage} where apt is at hand (npm test's pretest runs it)`,
  );
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface RunningTool {
  url: string;
  close(): Promise<void>;
}

async function startTool(
  binary: string,
  args: readonly string[],
  dataDir: string,
): Promise<{ child: ChildProcess; output: () => string }> {
  const child = spawn(binary, args, { cwd: dataDir, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  return { child, output: () => output };
}

async function untilReady(
  url: string,
  child: ChildProcess,
  output: () => string,
  what: string,
): Promise<void> {
  await waitFor(async () => {
    if (child.exitCode !== null) throw new Error(`${what} exited (${child.exitCode}):\n${output()}`);
    try {
      return (await fetch(`${url}/-/ready`)).ok;
    } catch {
      return false;
    }
  }, `${what} to be ready`);
}

function stopper(child: ChildProcess, dir: string): () => Promise<void> {
  return async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    }
    await rm(dir, { recursive: true, force: true });
  };
}

export async function startPushgateway(): Promise<RunningTool> {
  const binary = requireBinary(["prometheus-pushgateway", "pushgateway"], "prometheus-pushgateway");
  const dir = await mkdtemp(join(tmpdir(), "mdq-pushgateway-"));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  // Its own persistence file: the package's default is one file shared by every instance on the host.
  const { child, output } = await startTool(
    binary,
    [`--web.listen-address=127.0.0.1:${port}`, `--persistence.file=${join(dir, "pushgateway.data")}`],
    dir,
  );
  const close = stopper(child, dir);
  try {
    await untilReady(url, child, output, "the Pushgateway");
  } catch (error) {
    await close();
    throw error;
  }
  return { url, close };
}

/** Prometheus scraping `targets` every second. */
export async function startPrometheus(targets: readonly string[]): Promise<RunningTool> {
  const binary = requireBinary(["prometheus"], "prometheus");
  const dir = await mkdtemp(join(tmpdir(), "mdq-prometheus-"));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const config = join(dir, "prometheus.yml");
  await writeFile(
    config,
    [
      "global: { scrape_interval: 1s, evaluation_interval: 1s }",
      "scrape_configs:",
      "  - job_name: mdq-export",
      `    static_configs: [{ targets: [${targets.map((target) => JSON.stringify(target)).join(", ")}] }]`,
      "",
    ].join("\n"),
  );
  const { child, output } = await startTool(
    binary,
    [
      `--config.file=${config}`,
      `--storage.tsdb.path=${join(dir, "data")}`,
      `--web.listen-address=127.0.0.1:${port}`,
    ],
    dir,
  );
  const close = stopper(child, dir);
  try {
    await untilReady(url, child, output, "Prometheus");
  } catch (error) {
    await close();
    throw error;
  }
  return { url, close };
}

/** One sample of a Prometheus text exposition. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Parses the text format (the Pushgateway's /metrics): enough for the names and labels we push. */
export function parseExposition(text: string): Sample[] {
  return text.split("\n").flatMap((line) => {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)/.exec(line);
    if (match === null) return [];
    const labels: Record<string, string> = {};
    for (const pair of (match[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g))
      labels[pair[1] as string] = pair[2] as string;
    return [{ name: match[1] as string, labels, value: Number(match[3]) }];
  });
}

/** The value of the one sample of `name` whose labels include `labels`; throws if not exactly one. */
export function sampleValue(
  samples: readonly Sample[],
  name: string,
  labels: Record<string, string> = {},
): number {
  const found = samples.filter(
    (sample) =>
      sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
  );
  if (found.length !== 1) throw new Error(`${found.length} samples of ${name}${JSON.stringify(labels)}`);
  return (found[0] as Sample).value;
}
