// The lines a run logs at its start and end: a healthy run is a few lines, and a stopped one says
// what to do next: run again after the quota resets, run again to resume, or, for a pipeline that
// keeps no state (stdout only), that nothing resumes and a rerun starts over.
import { ERROR_CODES, errorMessage, hasCode } from "../../errors.js";
import type { Logger } from "../../logger.js";
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
      { remaining_slices: outcome.remaining, reason: errorMessage(error) },
      stopAdvice(error, keepsState),
    );
  }
}

/** What a stopped run says to do: only a run that keeps state (a file or S3 sink) resumes. */
function stopAdvice(error: unknown, keepsState: boolean): string {
  if (hasCode(error, ERROR_CODES.QUOTA_EXHAUSTED))
    return "Run stopped at the quota reserve; run the same command after the daily quota resets to resume.";
  if (hasCode(error, ERROR_CODES.QUOTA_YIELDED))
    return "Run stopped: it yielded to a higher-priority pipeline of the quota ledger; it resumes on its next schedule, or after the daily quota renews.";
  if (hasCode(error, ERROR_CODES.QUOTA_LEDGER_UNREACHABLE))
    return "Run stopped: the quota ledger became unreachable and the requests it had reserved are spent; run the same command again once the ledger is back to resume.";
  if (!keepsState)
    return hasCode(error, ERROR_CODES.OUTPUT_CLOSED)
      ? "Run stopped: the reader of stdout closed it. A pipeline that writes only to stdout keeps no state, so there is nothing to resume: running it again exports the whole window again."
      : "Run stopped. A pipeline that writes only to stdout keeps no state, so there is nothing to resume: running it again exports the whole window again.";
  if (hasCode(error, ERROR_CODES.OUTPUT_CLOSED))
    return "Run stopped: the reader of stdout closed it. The committed slices are kept; run the same command again to export the rest.";
  return "Run stopped; run the same command again to resume.";
}
