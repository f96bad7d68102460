// The lines a run logs at its start and end: a healthy run is a few lines, and a stopped one says
// what to do next.
import type { Logger } from "../../logger.js";
import { stopAdvice } from "./stop-advice.js";
import type { PipelineOutcome } from "./run-outcome.js";

/** The fields the logger does not already carry: a key twice in one line is refused by collectors. */
export function unbound(log: Logger, fields: Record<string, string>): Record<string, string> {
  const bound = log.bindings();
  return Object.fromEntries(Object.entries(fields).filter(([key]) => !Object.hasOwn(bound, key)));
}

export function logEnd(outcome: PipelineOutcome, log: Logger, keepsState: boolean): void {
  if (outcome.status === "complete") {
    log.info(
      { ...unbound(log, { run_id: outcome.runId }), records: outcome.records, slices: outcome.slices.length },
      "Run complete.",
    );
  } else if (outcome.status === "stopped") {
    const error = outcome.error;
    log.warn(
      { remaining_slices: outcome.remaining, reason: error instanceof Error ? error.message : String(error) },
      stopAdvice(error, keepsState),
    );
  }
}
