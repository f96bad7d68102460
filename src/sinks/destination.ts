// The contract of a destination (where a sink's files go) and how the `to` of a sink picks one. It
// names no storage library: a destination that needs a client builds it, or takes it from its own
// factory's options (createS3Destination({ client })).
import type { Logger } from "../logger.js";
import type { z } from "zod";
import type { OutputStore, RunInfo } from "../core/contracts.js";
import type { Writable } from "node:stream";

/** How a sink's `to` names a destination. */
export type DestinationTarget =
  /** `scheme://...`, such as mem://name. */
  | { scheme: string }
  /** Exactly this value, such as `-`. */
  | { literal: string }
  /** A local path: whatever no other destination claims. */
  | { path: true };

/** What opening a store may need beside `to` and the destination's options. */
export interface DestinationDeps {
  run: RunInfo;
  /** Where `to: -` writes; process.stdout unless a test captures it. */
  stdout?: Writable;
  /** Where a destination's library logs (its SDK's warnings), as log lines. */
  log?: Logger;
}

/**
 * How a destination keeps two runs off one output (pipeline/output-state/output-lock.ts):
 * - `conditional`: its stores offer `conditional` (create-if-absent and compare-and-swap on one small
 *   object); a run holds the output lock there, and opening a store without it is an error.
 * - `unshared`: each run's output is its own (a process's stdout); there is nothing to lock.
 * - `none`: two runs could write one output and nothing keeps them apart; a run writing to it warns,
 *   naming the destination. Declare it only for storage that has no conditional write.
 */
export type OutputLockSupport = "conditional" | "unshared" | "none";

/**
 * A destination; any format goes to any destination, except that a `stream` destination takes only
 * formats that stream. Listed in an environment's `destinations` (components/environment.ts) under
 * its `type`, which is also the YAML key of its options on a sink (`type: { ... }`).
 */
export interface Destination<Options = unknown> {
  type: string;
  /** One line, shown in the generated docs. */
  summary: string;
  target: DestinationTarget;
  /** How `to` looks for it, for messages: `mem://name`. */
  example: string;
  /** One stream rather than files: no record fields in paths, only formats that stream. */
  stream?: boolean;
  /** Whether its stores can hold the output lock; see OutputLockSupport. */
  lock: OutputLockSupport;
  /** Its options, under its own key on a sink; omitted when it has none. */
  options?: z.ZodType<Options>;
  /**
   * Keys of its options that change how bytes are stored (credentials, tags, storage class) but not
   * which files are written: a rerun that changes them keeps the files already written.
   */
  outputNeutral?: readonly string[];
  /** A problem with `to` itself (after the scheme), or undefined. */
  checkTarget?(to: string): string | undefined;
  /**
   * Where a warehouse reads the files under `to`, for `mdq-export ddl`: the location as `dialect`
   * (duckdb, athena, bigquery) names it, or undefined when that warehouse cannot read this storage.
   * Omitted when no warehouse reads it; `ddl --location` then names where the files were copied.
   */
  ddlLocation?(to: string, dialect: string): string | undefined;
  open(to: string, options: Options | undefined, deps: DestinationDeps): Promise<OutputStore>;
}
