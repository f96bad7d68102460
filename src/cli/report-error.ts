// Turns an error into text on stderr and an exit code: the one place errors become words.
import type { Writable } from "node:stream";
import { ConfigError, EtlError, QuotaExhaustedError, StoppedError } from "../errors.js";
import { EXIT } from "./io.js";

function where(issue: ConfigError["issues"][number]): string {
  if (issue.file === undefined) return "";
  if (issue.line === undefined) return `${issue.file}: `;
  return `${issue.file}:${issue.line}:${issue.column ?? 1}: `;
}

function causeChain(error: unknown): string[] {
  const lines: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current !== undefined && depth < 8; depth++) {
    if (current instanceof Error) {
      const code = current instanceof EtlError ? ` [${current.code}]` : "";
      lines.push(`${depth === 0 ? "" : "caused by: "}${current.name}${code}: ${current.message}`);
      current = current.cause;
    } else {
      lines.push(`caused by: ${String(current)}`);
      break;
    }
  }
  return lines;
}

/** Writes the error and returns the exit code: 2 for invalid input, 75 for resumable stops, else 1. */
export function reportError(error: unknown, stderr: Writable, debug: boolean): number {
  if (error instanceof ConfigError) {
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
    return EXIT.invalid;
  }
  const resumable = error instanceof QuotaExhaustedError || error instanceof StoppedError;
  const lines = debug ? causeChain(error) : [error instanceof Error ? error.message : String(error)];
  stderr.write(`error: ${lines.join("\n  ")}\n`);
  if (!debug && error instanceof Error && error.cause !== undefined)
    stderr.write("  (--debug shows the causes)\n");
  return resumable ? EXIT.resumable : EXIT.failed;
}
