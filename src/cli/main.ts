#!/usr/bin/env node
// The mdq-export command line: dispatches to a command, wires signals to an AbortSignal, and turns
// errors into exit codes. The only module that touches process.argv, process.exit and signals.
import { realpathSync } from "node:fs";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { ERROR_CODES, hasCode, StoppedError } from "../errors.js";
import { didYouMean } from "../core/close-matches.js";
import { EXIT } from "./io.js";
import type { CliIO, Command, DependencyMessage } from "./io.js";
import { reportError } from "./report-error.js";
import { routeDependencyMessages } from "./dependency-messages.js";
import { outputFullCode } from "../sinks/output-full.js";
import { boundHeapGrowth } from "./heap-growth.js";
import { defaultComponents } from "../components/environment.js";

/** Commands load their modules when called, so `--help` and small commands start fast. */
const COMMANDS = {
  run: async () => (await import("./commands/run.js")).runCommand,
  plan: async () => (await import("./commands/plan.js")).planCommand,
  validate: async () => (await import("./commands/validate.js")).validateCommand,
  schema: async () => (await import("./commands/schema.js")).schemaCommand,
  ddl: async () => (await import("./commands/ddl.js")).ddlCommand,
  fields: async () => (await import("./commands/fields.js")).fieldsCommand,
  verify: async () => (await import("./commands/verify.js")).verifyCommand,
  "merge-manifests": async () => (await import("./commands/merge-manifests.js")).mergeManifestsCommand,
  quota: async () => (await import("./commands/quota.js")).quotaCommand,
  emulator: async () => (await import("./commands/emulator.js")).runEmulatorCommand,
} satisfies Record<string, () => Promise<Command>>;

type CommandName = keyof typeof COMMANDS;
const isCommand = (name: string): name is CommandName => Object.hasOwn(COMMANDS, name);

/** What each command does, a line each in the usage, in this order. */
const SUMMARIES: Readonly<Record<CommandName, string>> = {
  run: "export a pipeline's window (resumes committed slices)",
  plan: "show slices, strategies, expected records and requests; export nothing",
  validate: "check pipeline files offline, with line and column",
  schema: "print each sink's output schema and its drift from the pinned one",
  ddl: "print the DuckDB, Athena or BigQuery statement that makes a sink's output a table",
  fields: "list a kind's mapped fields and their types",
  verify: "re-read an export and check it against its manifest",
  "merge-manifests": "combine the manifests of a sharded run",
  quota: "show the quota ledger a fleet shares: the day, claims, reservations, spending",
  emulator: "run the embedded Monitoring Data Query Service emulator",
};

const USAGE = `Usage: mdq-export COMMAND [options]

Exports monitoring data from the Monitoring Data Query Service to Parquet or NDJSON.

Commands:
${Object.entries(SUMMARIES)
  .map(([name, summary]) => `  ${name.padEnd(16)}${summary}`)
  .join("\n")}

Run 'mdq-export COMMAND --help' for a command's options.
Exit codes: 0 done, 1 failed, 2 invalid pipeline or arguments, 75 stopped but resumable.`;

/** Runs one command line; returns the exit code. Tests call this in-process. */
export async function main(argv: readonly string[], io: CliIO): Promise<number> {
  const [name, ...rest] = argv;
  // `help run` is `run --help`.
  if (name === "help" && rest[0] !== undefined && isCommand(rest[0])) return main([rest[0], "--help"], io);
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    (name === undefined ? io.stderr : io.stdout).write(`${USAGE}\n`);
    return name === undefined ? EXIT.invalid : EXIT.ok;
  }
  if (name === "--version") {
    io.stdout.write("mdq-export 0.1.0\n");
    return EXIT.ok;
  }
  if (!isCommand(name)) {
    const names = Object.keys(COMMANDS);
    const suggestion = didYouMean(name, names);
    const list =
      suggestion === "" ? `; one of ${names.join(", ")}` : `${suggestion} One of ${names.join(", ")}.`;
    io.stderr.write(`error: unknown command "${name}"${list}\n\n${USAGE}\n`);
    return EXIT.invalid;
  }
  // What a dependency prints on its own never reaches stdout, which carries a command's JSON, DDL or
  // records: `run` logs it as a structured line; every other command says it on stderr, a line each.
  const release =
    name === "run"
      ? undefined
      : io.routeDependencyMessages?.((message) => io.stderr.write(`${dependencyWarning(message)}\n`));
  try {
    const command = await COMMANDS[name]();
    const code = await command(rest, io);
    return hasCode(io.signal.reason, ERROR_CODES.OUTPUT_CLOSED) ? outputClosedExit(name, code) : code;
  } catch (error) {
    // The reader of stdout went away (`| head`): the stop is what it asked for, not an error to show.
    if (hasCode(io.signal.reason, ERROR_CODES.OUTPUT_CLOSED)) return outputClosedExit(name, EXIT.resumable);
    return reportError(error, io.stderr, rest.includes("--debug"));
  } finally {
    release?.();
  }
}

/** `warning: a dependency (NAME): MESSAGE`, its lines folded into one. */
function dependencyWarning(message: DependencyMessage): string {
  const text = message.message.replace(/\s*\n\s*/g, " ").trim();
  return `warning: a dependency (${message.name ?? message.source}): ${text}`;
}

/**
 * The exit code of a command whose reader closed stdout (`| head`): only `run` leaves work undone
 * (75, its log line says whether it resumes); a command that only prints (`fields`, `plan`, `schema`)
 * gave the reader what it wanted, so it ends as done.
 */
function outputClosedExit(command: string, code: number): number {
  return command === "run" ? code : EXIT.ok;
}

async function runFromProcess(): Promise<void> {
  boundHeapGrowth(process.execArgv);
  const controller = new AbortController();
  let signals = 0;
  const onSignal = (signal: NodeJS.Signals): void => {
    signals++;
    // A second signal means "now": skip the clean stop.
    if (signals > 1) process.exit(EXIT.resumable);
    process.stderr.write(`\nmdq-export: ${signal} received; stopping after cleaning up (again to force)\n`);
    controller.abort();
  };
  process.on("SIGTERM", onSignal);
  process.on("SIGINT", onSignal);
  // A reader that has all it wants (`run ... | head`) closes the pipe: stop as a signal would, quietly,
  // instead of dying on an unhandled EPIPE with a stack trace.
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") {
      controller.abort(new StoppedError("the reader of stdout closed it", { code: "OUTPUT_CLOSED" }));
      return;
    }
    // stdout redirected to a file on a full disk: a stop with the fix, not a stack trace.
    const full = outputFullCode(error);
    if (full === undefined) throw error;
    controller.abort(stdoutFull(full, error));
  });
  const code = await main(process.argv.slice(2), {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    signal: controller.signal,
    isTTY: process.stderr.isTTY === true,
    routeDependencyMessages,
    components: defaultComponents(),
  });
  // A write to stdout fails through its 'error' event, which may come after the command returned.
  if (!process.stdout.destroyed)
    await new Promise<void>((resolve) => process.stdout.write("", () => resolve()));
  // `run` logged the stop with its reason; other commands say it here.
  if (hasCode(controller.signal.reason, ERROR_CODES.OUTPUT_FULL) && process.argv[2] !== "run") {
    process.exitCode = reportError(controller.signal.reason, process.stderr, false);
    return;
  }
  // A signal that came while the command ended still means the run was stopped; a closed stdout is
  // already in the command's own code.
  const closed = hasCode(controller.signal.reason, ERROR_CODES.OUTPUT_CLOSED);
  const final = controller.signal.aborted && !closed && code !== EXIT.invalid ? EXIT.resumable : code;
  // Let stdout drain (a pipe to a warehouse loader) before the exit code is set.
  process.exitCode = final;
}

/** stdout's file or device is full: the command stops; once there is room, the same command works. */
function stdoutFull(code: string, cause: unknown): StoppedError {
  const what = code === "EDQUOT" ? "the disk quota of this user is used up" : "no space is left";
  return new StoppedError(
    `writing to stdout failed (${code}): ${what} where stdout goes (the file it is redirected to); free space there and run the same command again`,
    { code: "OUTPUT_FULL", cause },
  );
}

/** Whether this module is the process's entry point (node dist/cli/main.js, or the npm bin link to it). */
function isEntryPoint(): boolean {
  const entry = process.argv[1];
  if (entry === undefined) return false;
  try {
    return realpathSync(entry) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

// Importing `main` (tests, tools) must not run a command line of the importer's argv.
if (isEntryPoint()) await runFromProcess();
