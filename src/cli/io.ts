// What a command may touch of the process: streams, environment, working directory, and a stop signal.
import type { Writable } from "node:stream";
import type { Components } from "../components/environment.js";
import type { ProgressTimers } from "./progress.js";

export interface CliIO {
  stdout: Writable;
  stderr: Writable;
  env: Readonly<Record<string, string | undefined>>;
  /** Aborted on SIGTERM/SIGINT; a command stops starting work and cleans up. */
  signal: AbortSignal;
  /** Whether stderr is a terminal (progress line rather than JSON logs). */
  isTTY: boolean;
  /**
   * Sends what dependencies would print raw (process warnings, console output) to `handler` instead,
   * until the returned function is called. Absent when the command does not own the process.
   */
  routeDependencyMessages?(handler: (message: DependencyMessage) => void): () => void;
  /**
   * The components pipelines are loaded and run with: `defaultComponents()` from the process's entry
   * point; a program that embeds the CLI, or a test, adds its own through `withComponents`.
   */
  components: Components;
  /** The timers of the progress line; the process's unless given (a test ticks its own). */
  progressTimers?: ProgressTimers;
}

/** A message a dependency emitted, as fields of a log line. */
export interface DependencyMessage {
  source: "process_warning" | "console";
  message: string;
  /** The warning's name and code (DeprecationWarning, DEP0040), or the console method. */
  name?: string;
  code?: string;
}

/** A command takes its own argv (after the command name) and returns the exit code. */
export type Command = (argv: readonly string[], io: CliIO) => Promise<number>;

export const EXIT = {
  ok: 0,
  failed: 1,
  invalid: 2,
  resumable: 75,
} as const;
