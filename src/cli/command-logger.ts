// The logger of a command: level from --log-level or MDQ_LOG_LEVEL, format from --log-format or
// MDQ_LOG_FORMAT (pretty on a terminal, else JSON), lines on the command's stderr.
import { createLogger } from "../logger.js";
import type { LogFormat, Logger, LogLevel } from "../logger.js";
import { argumentError, parseLogLevel } from "./command-options.js";
import type { CliIO } from "./io.js";

export const LOG_FORMAT_OPTION = { "log-format": { type: "string" } } as const;

interface LogFlags {
  "log-level"?: string | undefined;
  "log-format"?: string | undefined;
}

/**
 * @example
 * const log = commandLogger(values, io, "warn");
 */
export function commandLogger(flags: LogFlags, io: CliIO, defaultLevel: LogLevel): Logger {
  const level = parseLogLevel(flags["log-level"] ?? io.env.MDQ_LOG_LEVEL, defaultLevel);
  const format = flags["log-format"] ?? io.env.MDQ_LOG_FORMAT ?? (io.isTTY ? "pretty" : "json");
  if (format !== "json" && format !== "pretty")
    throw argumentError("--log-format", `--log-format "${format}" is not one of json, pretty`);
  // Lines go to the command's stderr, so an in-process caller (tests, an embedding tool) gets them too.
  return createLogger({ level, format: format as LogFormat, colorize: io.isTTY, destination: io.stderr });
}
