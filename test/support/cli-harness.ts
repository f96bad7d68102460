// The one CLI test harness: runs real pipelines through the command line against an emulator the
// test starts, in-process (`main()`) or as the built CLI in a child process; writes pipeline files
// and temporary folders for them, and reads back what the run wrote.
import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative, sep } from "node:path";
import { PassThrough } from "node:stream";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";
import { stringify } from "yaml";
import { defaultComponents } from "../../src/components/environment.js";
import type { Components } from "../../src/components/environment.js";
import type { ProgressTimers } from "../../src/cli/progress.js";
import { main } from "../../src/cli/main.js";
import { startEmulator } from "../../src/emulator/server.js";
import type { EmulatorOptions, RunningEmulator } from "../../src/emulator/server.js";

export const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url));
export const CLI_ENTRY = join(REPO_ROOT, "dist/cli/main.js");
/** The test build of the CLI (scripts/bundle.mjs): the shipped one with its test hooks (`MDQ_TEST_PAUSE_AT`). */
export const TEST_HOOKS_CLI_ENTRY = join(REPO_ROOT, "dist-test/cli/main.js");

export type Row = Record<string, unknown>;

/** The `service` section every test pipeline uses: the test's emulator, through the environment. */
export const SERVICE_FROM_ENV = {
  base_url: "${MDQ_BASE_URL}",
  auth_url: "${MDQ_AUTH_URL}",
  client_id: "${MDQ_CLIENT_ID}",
  client_secret: "${MDQ_CLIENT_SECRET}",
};

/** The same section as YAML text, for tests that write their pipelines by hand. */
export const REMOTE_SERVICE_YAML = stringify({ service: SERVICE_FROM_ENV }).trimEnd();

/** The `${MDQ_*}` variables of `SERVICE_FROM_ENV`, pointing at a running emulator. */
export function emulatorEnv(emulator: RunningEmulator): Record<string, string> {
  return {
    MDQ_BASE_URL: emulator.url,
    MDQ_AUTH_URL: emulator.url,
    MDQ_CLIENT_ID: emulator.clientId,
    MDQ_CLIENT_SECRET: emulator.clientSecret,
  };
}

export interface TestService {
  emulator: RunningEmulator;
  /** The `${MDQ_*}` variables of `SERVICE_FROM_ENV` for a CLI run against `emulator`. */
  env: Record<string, string>;
  close(): Promise<void>;
}

/** The instant the export tests' emulators take as now (v1 date-math and billing resolve against it). */
export const EMULATOR_NOW = Date.parse("2026-03-12T10:30:00Z");

/**
 * The emulator of the export tests: a fixed clock, batch partitions ready at the first poll, no
 * faults. Spread it under a test's own options: `startTestService({ ...EXPORT_EMULATOR, density: 4 })`.
 */
export const EXPORT_EMULATOR = {
  seed: 11,
  density: 8,
  batchReadyAfterPolls: 0,
  clock: () => EMULATOR_NOW,
} as const satisfies EmulatorOptions;

/** An emulator on port 0, and the environment a CLI run needs to reach it. */
export async function startTestService(options: EmulatorOptions = {}): Promise<TestService> {
  const emulator = await startEmulator(options);
  return { emulator, env: emulatorEnv(emulator), close: () => emulator.close() };
}

export async function makeTempDir(prefix: string): Promise<string> {
  return mkdtemp(join(tmpdir(), `mdq-${prefix}-`));
}

export async function removeDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}

/** Writes a pipeline (an object, stringified as YAML) and returns its path. */
export async function writePipeline(dir: string, pipeline: object, name = "pipeline.yaml"): Promise<string> {
  const file = join(dir, name);
  await writeFile(file, stringify(pipeline));
  return file;
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  /** stderr lines that are JSON log records. */
  logs: Row[];
}

function parseLogs(stderr: string): Row[] {
  return stderr.split("\n").flatMap((line) => {
    if (!line.startsWith("{")) return [];
    try {
      return [JSON.parse(line) as Row];
    } catch {
      return [];
    }
  });
}

export interface RunCliOptions {
  env?: Readonly<Record<string, string | undefined>>;
  signal?: AbortSignal;
  /** The components the commands load and run pipelines with; the built-in ones unless given. */
  components?: Components;
  /** The timers of the run's progress line, for a test that ticks them itself. */
  progressTimers?: ProgressTimers;
}

/** Runs `mdq-export ARGV...` through `main()` in this process; never a terminal, so logs are JSON lines on stderr. */
export async function runCli(argv: readonly string[], options: RunCliOptions = {}): Promise<CliResult> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  stdout.on("data", (chunk: Buffer) => out.push(chunk));
  stderr.on("data", (chunk: Buffer) => err.push(chunk));
  const code = await main(argv, {
    stdout,
    stderr,
    env: { ...options.env },
    signal: options.signal ?? new AbortController().signal,
    isTTY: false,
    components: options.components ?? defaultComponents(),
    ...(options.progressTimers === undefined ? {} : { progressTimers: options.progressTimers }),
  });
  const stderrText = Buffer.concat(err).toString("utf8");
  return {
    code,
    stdout: Buffer.concat(out).toString("utf8"),
    stderr: stderrText,
    logs: parseLogs(stderrText),
  };
}

export interface SpawnedCli {
  child: ChildProcess;
  /** Everything written to stderr so far. */
  stderr(): string;
  stdout(): string;
  /** Resolves with the exit code (or the signal's name) when the process ends. */
  exited: Promise<number | NodeJS.Signals>;
}

export interface SpawnCliOptions {
  /** The built CLI to start: the shipped bundle unless given (`TEST_HOOKS_CLI_ENTRY` has the test hooks). */
  entry?: string;
  /** Runs the CLI's command line under another command (`unshare …`): it gets the line, returns the one run. */
  wrap?: (command: readonly string[]) => readonly string[];
}

/** Starts the built CLI (`npm test` builds first) as a child process. */
export function spawnCli(
  argv: readonly string[],
  env: Record<string, string>,
  options: SpawnCliOptions = {},
): SpawnedCli {
  const line = [process.execPath, options.entry ?? CLI_ENTRY, ...argv];
  const [command = process.execPath, ...args] = options.wrap?.(line) ?? line;
  const child = spawn(command, args, {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let err = "";
  let out = "";
  child.stderr?.on("data", (chunk: Buffer) => (err += chunk.toString("utf8")));
  child.stdout?.on("data", (chunk: Buffer) => (out += chunk.toString("utf8")));
  const exited = new Promise<number | NodeJS.Signals>((resolve) => {
    child.on("exit", (code, signal) => resolve(code ?? signal ?? -1));
  });
  return { child, stderr: () => err, stdout: () => out, exited };
}

export interface Workspace {
  dir: string;
  /** Writes `text` as `name` in the workspace and returns its path. */
  write(name: string, text: string): Promise<string>;
  /** Creates a new folder in the workspace, named `name-` and a unique suffix (a test's own corner), and returns its path. */
  folder(name: string): Promise<string>;
  remove(): Promise<void>;
}

/** A fresh temporary directory for pipeline files (written as text) and their output. */
export async function createWorkspace(prefix = "e2e"): Promise<Workspace> {
  const dir = await makeTempDir(prefix);
  return {
    dir,
    async write(name, text) {
      const path = join(dir, name);
      await writeFile(path, text, "utf8");
      return path;
    },
    folder: (name) => mkdtemp(join(dir, `${name}-`)),
    remove: () => removeDir(dir),
  };
}

/** Polls `condition` until it is truthy or the deadline passes (crash tests pick their moment this way). */
export async function waitFor<T>(
  condition: () => T | undefined | false | Promise<T | undefined | false>,
  what: string,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await condition();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Every file under `dir`, hidden ones included, as `/`-separated relative paths, sorted. */
export async function listTree(dir: string): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(dir, { recursive: true, withFileTypes: true });
  } catch {
    return [];
  }
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split(sep).join("/"))
    .sort();
}

/** Hidden temporary files the local store writes before renaming (`.name.tmp-…`). */
export function temporaryFiles(paths: readonly string[]): string[] {
  return paths.filter((path) => /(^|\/)\.[^/]*\.tmp-[^/]*$/.test(path));
}

/** Data files: neither temporary nor the run's own bookkeeping (`_manifest.json`, `_SUCCESS`, state). */
export function dataFiles(paths: readonly string[]): string[] {
  return paths.filter(
    (path) =>
      temporaryFiles([path]).length === 0 &&
      !path.startsWith("_mdq-export/") &&
      !path.split("/").some((part) => part.startsWith("_")),
  );
}

/** Every record of every NDJSON file (gzip or not) under `dir`, in file order. */
export async function readNdjsonRecords(dir: string): Promise<Row[]> {
  const rows: Row[] = [];
  for (const path of dataFiles(await listTree(dir))) {
    if (!/\.ndjson(\.gz)?$/.test(path)) continue;
    let bytes = await readFile(join(dir, path));
    if (path.endsWith(".gz")) bytes = gunzipSync(bytes);
    for (const line of bytes.toString("utf8").split("\n"))
      if (line !== "") rows.push(JSON.parse(line) as Row);
  }
  return rows;
}

/** The records the emulator holds for a query, keyed by `_id`, as rows (`_id`, `_index`, `..._source`). */
export async function expectedRows(
  emulator: RunningEmulator,
  target: Parameters<RunningEmulator["expectedHits"]>[0],
  bodies: readonly Parameters<RunningEmulator["expectedHits"]>[1][],
): Promise<Map<string, Row>> {
  const rows = new Map<string, Row>();
  for (const body of bodies) {
    for await (const hit of emulator.expectedHits(target, body)) {
      if (rows.has(hit._id)) throw new Error(`the emulator gave ${hit._id} twice`);
      rows.set(hit._id, { _id: hit._id, _index: hit._index, ...hit._source });
    }
  }
  return rows;
}

/**
 * Asserts that `written` holds exactly the expected records, once each, with the same values.
 * Returns a message naming the first difference, or undefined (use with `expect(...).toBeUndefined()`).
 */
export function compareExactly(
  written: readonly Row[],
  expected: ReadonlyMap<string, Row>,
): string | undefined {
  const seen = new Set<string>();
  for (const row of written) {
    const id = String(row._id);
    if (seen.has(id)) return `record ${id} was written twice`;
    seen.add(id);
    const want = expected.get(id);
    if (want === undefined) return `record ${id} was written but the service does not hold it`;
    const got = JSON.stringify(sortKeys(row));
    const wanted = JSON.stringify(sortKeys(want));
    if (got !== wanted) return `record ${id} differs:\n  written  ${got}\n  expected ${wanted}`;
  }
  const missing = [...expected.keys()].filter((id) => !seen.has(id));
  if (missing.length > 0)
    return `${missing.length} record(s) missing, e.g. ${missing.slice(0, 3).join(", ")}`;
  return undefined;
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value as Row)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([key, inner]) => [key, sortKeys(inner)]),
    );
  }
  return value;
}

export async function readJson(path: string): Promise<Row> {
  return JSON.parse(await readFile(path, "utf8")) as Row;
}

/**
 * Temporary folders and emulators a test file starts, removed and closed together:
 * `const scope = testScope(); afterAll(scope.cleanUp);`
 */
export function testScope(): {
  tempDir(prefix: string): Promise<string>;
  startService(options?: EmulatorOptions): Promise<TestService>;
  cleanUp(): Promise<void>;
} {
  const dirs: string[] = [];
  const services: TestService[] = [];
  return {
    async tempDir(prefix) {
      const dir = await makeTempDir(prefix);
      dirs.push(dir);
      return dir;
    },
    async startService(options) {
      const service = await startTestService(options);
      services.push(service);
      return service;
    },
    async cleanUp() {
      for (const service of services) await service.close();
      for (const dir of dirs) await removeDir(dir);
    },
  };
}
