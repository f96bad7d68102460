// Turns an error into text on stderr and an exit code: the one place errors become words. The exit
// code comes from the error's stable code (error-codes.ts); an error without one is a failure.
import type { Writable } from "node:stream";
import { ERROR_CATALOG } from "../error-codes.js";
import type { ConfigError } from "../errors.js";
import { errorCode, errorMessage, isApiError, isConfigError } from "../errors.js";
import { EXIT } from "./io.js";

function where(issue: ConfigError["issues"][number]): string {
  if (issue.file === undefined) return "";
  if (issue.line === undefined) return `${issue.file}: `;
  return `${issue.file}:${issue.line}:${issue.column ?? 1}: `;
}

/**
 * An error's own part of its message. A wrapper usually ends with its cause's message (so the first
 * line reads on its own); in the chain the cause has its own line, so it is not said twice.
 */
function ownMessage(error: Error): string {
  const cause = error.cause;
  if (!(cause instanceof Error) || cause.message === "") return error.message;
  const suffix = `: ${cause.message}`;
  return error.message.endsWith(suffix) ? error.message.slice(0, -suffix.length) : error.message;
}

/** Every error of the chain on its own line, with its code; `--debug` prints it. */
function causeChain(error: unknown): string[] {
  const lines: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current !== undefined && depth < 8; depth++) {
    if (current instanceof Error) {
      const code = errorCode(current);
      lines.push(
        `${depth === 0 ? "" : "caused by: "}${current.name}${code === undefined ? "" : ` [${code}]`}: ${ownMessage(current)}`,
      );
      current = current.cause;
    } else {
      lines.push(`caused by: ${String(current)}`);
      break;
    }
  }
  return lines;
}

/** The exit code an error ends a command with: 2 invalid input, 75 resumable stop, else 1. */
export function exitCodeOf(error: unknown): number {
  // A retryable ApiError that reaches here has spent its retry budget: the service stayed unreachable
  // or kept failing (even before the first slice, while planning), so the same command later resumes.
  if (isApiError(error) && error.retryable) return EXIT.resumable;
  const code = errorCode(error);
  // The catalog names each code's exit by its name in EXIT.
  return code === undefined ? EXIT.failed : EXIT[ERROR_CATALOG[code].exit];
}

/** Writes the error and returns its exit code. */
export function reportError(error: unknown, stderr: Writable, debug: boolean): number {
  if (isConfigError(error)) {
    if (error.issues.length === 0 || error.issues.every((issue) => issue.path === "arguments")) {
      stderr.write(`error: ${error.message}\n`);
    } else {
      stderr.write(
        `error: the pipeline is invalid (${error.issues.length} problem${error.issues.length === 1 ? "" : "s"}):\n`,
      );
      for (const issue of error.issues) {
        stderr.write(`  ${where(issue)}${issue.path === "" ? "" : `${issue.path}: `}${issue.message}\n`);
      }
    }
    return exitCodeOf(error);
  }
  const lines = debug ? causeChain(error) : [errorMessage(error)];
  stderr.write(`error: ${lines.join("\n  ")}\n`);
  if (!debug && error instanceof Error && error.cause !== undefined)
    stderr.write("  (--debug shows the causes)\n");
  return exitCodeOf(error);
}
