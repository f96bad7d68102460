// What a caller gives a run and the hooks it may hang on it: the options of `runPipeline`, its events,
// and the progress counts an observer reads while the slices run.
import type { LedgerProgress } from "../../quota-ledger/ledger-gate-options.js";
import type { Writable } from "node:stream";
import type { PipelineOutcome } from "./run-outcome.js";
import type { RunnerEvents } from "./runner.js";
import type { Shard } from "../plan/shard.js";
import type { PrepareOptions } from "./prepare-run.js";

/** The counts of a run in progress, read as often as an observer likes. */
export interface RunProgress {
  records: number;
  slicesDone: number;
  slicesTotal: number;
  /** Records the plan expects in all, when the probe could tell. */
  expectedRecords: number | undefined;
  quotaRemaining: number | undefined;
  /** With a quota ledger: the fleet's count and this run's claim, reserved and spent requests. */
  ledger?: LedgerProgress | undefined;
  /** Requests the client lets wait for the service's answer at once now (adaptive concurrency). */
  concurrency: number;
  elapsedMs: number;
}

/** Hooks an observer (progress line, metrics) hangs on a run; all optional, none may throw. */
export interface PipelineEvents extends RunnerEvents {
  /** The slices are about to run; `progress()` reads the counts at any moment until `finished`. */
  started?(run: { runId: string; progress(): RunProgress }): void;
  finished?(outcome: PipelineOutcome): void;
}

/** The log, signal, run, observer, environment and quota ledger as `prepareRun` takes them. */
export interface RunPipelineOptions extends Pick<
  PrepareOptions,
  "log" | "signal" | "run" | "observer" | "components" | "quotaLedger"
> {
  /** Where `to: -` sinks write. */
  stdout: Writable;
  shard?: Shard | undefined;
  /** Redo every slice of the window, even committed ones or after the pipeline changed (see state-force.ts). */
  force?: boolean;
  /** Re-count the committed slices and redo those whose count changed (`--recheck`). */
  recheck?: boolean;
  /** Replace an output lock that cannot be read or whose lease lies too far ahead (`--break-lock`). */
  breakLock?: boolean;
  /** The pipeline file: a pinned schema committed next to it is read relative to it. */
  pipelineFile: string;
  events?: PipelineEvents;
}
