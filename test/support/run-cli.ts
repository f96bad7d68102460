// Runs the mdq-export command line in-process through `main()`, with captured stdout and stderr, and
// writes pipeline files for it; the environment that points a pipeline at a test's own emulator.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { main } from "../../src/cli/main.js";
import type { RunningEmulator } from "../../src/emulator/server.js";

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunCliOptions {
  env?: Readonly<Record<string, string | undefined>>;
  cwd?: string;
  signal?: AbortSignal;
}

function captureStream(): { stream: Writable; text: () => string } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
      callback();
    },
  });
  return { stream, text: () => Buffer.concat(chunks).toString("utf8") };
}

/** Runs `mdq-export ARGV...` in this process; never a terminal, so logs are JSON lines on stderr. */
export async function runCli(argv: readonly string[], options: RunCliOptions = {}): Promise<CliResult> {
  const stdout = captureStream();
  const stderr = captureStream();
  const code = await main(argv, {
    stdout: stdout.stream,
    stderr: stderr.stream,
    env: options.env ?? {},
    cwd: options.cwd ?? process.cwd(),
    signal: options.signal ?? new AbortController().signal,
    isTTY: false,
  });
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

/** The `${MDQ_*}` variables of a remote-service pipeline, pointing at a running emulator. */
export function emulatorEnv(emulator: RunningEmulator): Record<string, string> {
  return {
    MDQ_BASE_URL: emulator.url,
    MDQ_AUTH_URL: emulator.url,
    MDQ_CLIENT_ID: emulator.clientId,
    MDQ_CLIENT_SECRET: emulator.clientSecret,
  };
}

/** The service section every test pipeline uses: the emulator named by `emulatorEnv`. */
export const REMOTE_SERVICE_YAML = `service:
  base_url: \${MDQ_BASE_URL}
  auth_url: \${MDQ_AUTH_URL}
  client_id: \${MDQ_CLIENT_ID}
  client_secret: \${MDQ_CLIENT_SECRET}`;

export interface Workspace {
  dir: string;
  /** Writes `text` as `name` in the workspace and returns its path. */
  write(name: string, text: string): Promise<string>;
  remove(): Promise<void>;
}

/** A fresh temporary directory for pipeline files and their output. */
export async function createWorkspace(prefix = "mdq-e2e-"): Promise<Workspace> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  return {
    dir,
    async write(name, text) {
      const path = join(dir, name);
      await writeFile(path, text, "utf8");
      return path;
    },
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}
