// The product's logger: pino, JSON on stderr, with credentials redacted by path.
import { pino } from "pino";
import type { Logger } from "pino";

export type { Logger } from "pino";

export type LogLevel = "trace" | "debug" | "info" | "warn" | "error" | "fatal" | "silent";

/** Paths that may carry a credential; pino replaces their values before a line is written. */
export const REDACTED_PATHS = [
  "client_secret",
  "*.client_secret",
  "access_token",
  "*.access_token",
  "token",
  "*.token",
  "authorization",
  "*.authorization",
  "headers.authorization",
  "*.headers.authorization",
  "presigned_url",
  "*.presigned_url",
];

export interface LoggerOptions {
  level?: LogLevel;
  /** Where lines go; stderr unless a test captures them. */
  destination?: pino.DestinationStream;
}

export function createLogger(options: LoggerOptions = {}): Logger {
  return pino(
    {
      level: options.level ?? "info",
      base: undefined,
      redact: { paths: REDACTED_PATHS, censor: "[redacted]" },
      formatters: { level: (label) => ({ level: label }) },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    options.destination ?? pino.destination({ fd: 2, sync: true }),
  );
}

/** A logger that writes nothing, for library use and tests that do not look at logs. */
export function createSilentLogger(): Logger {
  return pino({ level: "silent" });
}
