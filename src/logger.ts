// The product's logger: pino, JSON on stderr (or pretty lines on a terminal), with credentials
// redacted by path.
import { pino } from "pino";
import type { Logger } from "pino";
import { prettyFactory } from "pino-pretty";

export type { Logger } from "pino";

export type LogLevel = "trace" | "debug" | "info" | "warn" | "error" | "fatal" | "silent";

/** `json`: one JSON object a line, for collectors; `pretty`: a readable line, for a terminal. */
export type LogFormat = "json" | "pretty";

/**
 * Paths that may carry a credential, at the top of a line's object and one level down; pino replaces
 * their values before a line is written.
 */
const REDACTED_PATHS = [
  "client_secret",
  "access_token",
  "token",
  "authorization",
  "headers.authorization",
  "presigned_url",
].flatMap((path) => [path, `*.${path}`]);

interface LoggerOptions {
  level?: LogLevel;
  /** Where lines go; stderr unless a test captures them. */
  destination?: pino.DestinationStream;
  format?: LogFormat;
  /** Colours in pretty lines (a terminal). */
  colorize?: boolean;
}

/** Renders each JSON line as a pretty one, synchronously, so no line is lost when the process ends. */
function prettyDestination(destination: pino.DestinationStream, colorize: boolean): pino.DestinationStream {
  const render = prettyFactory({ colorize, translateTime: "SYS:HH:MM:ss.l", ignore: "hostname,pid" });
  return { write: (line: string) => destination.write(render(line)) };
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const destination = options.destination ?? pino.destination({ fd: 2, sync: true });
  return pino(
    {
      level: options.level ?? "info",
      base: undefined,
      redact: { paths: REDACTED_PATHS, censor: "[redacted]" },
      formatters: { level: (label) => ({ level: label }) },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    options.format === "pretty" ? prettyDestination(destination, options.colorize === true) : destination,
  );
}

/** A logger that writes nothing, for library use and tests that do not look at logs. */
export function createSilentLogger(): Logger {
  return pino({ level: "silent" });
}
