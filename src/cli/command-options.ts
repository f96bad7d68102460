// Argument parsing shared by the commands: node:util parseArgs with --help, and the options every
// pipeline command takes (window overrides, log level).
import { parseArgs } from "node:util";
import type { ParseArgsConfig } from "node:util";
import type { Writable } from "node:stream";
import { parseInstant } from "../core/date-math.js";
import { ConfigError, errorMessage } from "../errors.js";
import type { LogLevel } from "../logger.js";
import { didYouMean } from "../core/close-matches.js";

type Options = NonNullable<ParseArgsConfig["options"]>;

/**
 * `--now T`: the instant the run's relative window (`last-hour`, `now-1d/d`) and its open slices are
 * decided against, like a scheduler's logical date; default the moment the command starts.
 */
export const NOW_OPTION = { now: { type: "string" } } as const satisfies Options;

/** What every command that loads a pipeline's window takes (run, plan, schema, ddl), in this order. */
export const PIPELINE_OPTIONS = {
  start: { type: "string" },
  end: { type: "string" },
  "log-level": { type: "string" },
  debug: { type: "boolean" },
  help: { type: "boolean", short: "h" },
  ...NOW_OPTION,
} as const satisfies Options;

const LOG_LEVELS: readonly LogLevel[] = ["trace", "debug", "info", "warn", "error", "fatal", "silent"];

/** Parses argv strictly; an unknown flag is an argument error (exit 2), with the flags it may mean. */
export function parseCommandArgs<T extends Options>(argv: readonly string[], options: T, usage: string) {
  try {
    return parseArgs({ args: [...argv], options, allowPositionals: true, strict: true });
  } catch (error) {
    const message = unknownOptionMessage(error, options) ?? errorMessage(error);
    throw argumentError("arguments", message, usage);
  }
}

/** A command line refused (exit 2): `path` is the flag or setting at fault; the usage follows when given. */
export function argumentError(path: string, message: string, usage?: string): ConfigError {
  return new ConfigError(usage === undefined ? message : `${message}\n\n${usage}`, [{ path, message }]);
}

/** Prints the usage when `--help` is given: then the command has nothing more to do (exit 0). */
export function showedHelp(values: { help?: unknown }, io: { stdout: Writable }, usage: string): boolean {
  if (values.help !== true) return false;
  io.stdout.write(`${usage}\n`);
  return true;
}

/** `unknown option "--shrad"; did you mean "--shard"?` for parseArgs' unknown-option error, else undefined. */
function unknownOptionMessage(error: unknown, options: Options): string | undefined {
  if ((error as { code?: unknown } | null)?.code !== "ERR_PARSE_ARGS_UNKNOWN_OPTION") return undefined;
  const given = /Unknown option '([^']+)'/.exec(error instanceof Error ? error.message : "")?.[1];
  if (given === undefined) return undefined;
  const flags = Object.keys(options).map((name) => `--${name}`);
  const shown = JSON.stringify(given.split("=")[0]);
  const suggestion = didYouMean(given.replace(/^-+/, "--").split("=")[0] ?? given, flags);
  return `unknown option ${shown}${suggestion === "" ? `; the options are ${flags.join(", ")}` : suggestion}`;
}

export function parseLogLevel(value: string | undefined, fallback: LogLevel): LogLevel {
  if (value === undefined) return fallback;
  if (!(LOG_LEVELS as readonly string[]).includes(value))
    throw argumentError("--log-level", `--log-level "${value}" is not one of ${LOG_LEVELS.join(", ")}`);
  return value as LogLevel;
}

/** The single pipeline file a command takes. */
export function requirePipelineFile(positionals: readonly string[], usage: string): string {
  if (positionals.length !== 1) {
    const message =
      positionals.length === 0
        ? "a pipeline file is required"
        : `one pipeline file is expected, got ${positionals.length}`;
    throw argumentError("arguments", message, usage);
  }
  return positionals[0] as string;
}

/**
 * When a command's pipeline is: `--now` and the window's `--start`/`--end`, for every command that
 * loads a pipeline (run, plan, schema, ddl), so that one command line means the same window in each.
 */
export function pipelineTime(values: {
  now?: string | undefined;
  start?: string | undefined;
  end?: string | undefined;
}): { now: Date; overrides: { start?: string; end?: string } } {
  const { start, end } = values;
  const overrides = { ...(start === undefined ? {} : { start }), ...(end === undefined ? {} : { end }) };
  return { now: runNow(values.now), overrides };
}

/**
 * How far `--now` may be ahead of this machine's clock: clocks of a scheduler and a worker drift by
 * seconds, not minutes. A `now` further ahead would settle slices the service has not indexed yet:
 * they would be recorded complete with the records that exist so far (none), and skipped ever after.
 */
export const NOW_AHEAD_TOLERANCE_MS = 5 * 60_000;

/**
 * The run's one "now": `--now` when given (refused unless an ISO timestamp with a zone, and refused
 * when later than the clock plus NOW_AHEAD_TOLERANCE_MS), else the current time.
 */
export function runNow(value: string | undefined, current: () => Date = () => new Date()): Date {
  if (value === undefined) return current();
  const parsed = parseInstant(value);
  const shown = `--now "${JSON.stringify(value).slice(1, -1)}"`;
  if (!parsed.ok) throw argumentError("--now", `${shown} ${parsed.reason}`);
  const clock = current();
  if (parsed.date.getTime() > clock.getTime() + NOW_AHEAD_TOLERANCE_MS)
    throw argumentError(
      "--now",
      `${shown} (${parsed.date.toISOString()}) is ahead of this machine's clock (${clock.toISOString()}) by more than ${NOW_AHEAD_TOLERANCE_MS / 60_000} minutes; slices the service has not indexed yet would be recorded as settled with the records found so far: give a --now no later than the clock (a scheduler's logical date is in the past)`,
    );
  return parsed.date;
}
