// The few lines a run prints when it ends: what it exported, where, and what is left. A stop (a
// signal, a lost lock, the quota) leaves slices cut short, not failed: the next run redoes them.
import { ERROR_CODES, hasCode } from "../errors.js";
import type { PipelineOutcome } from "../pipeline/run/run-outcome.js";

function megabytes(bytes: number): string {
  return `${(bytes / 1_000_000).toFixed(bytes < 10_000_000 ? 2 : 1)} MB`;
}

export function formatRunSummary(outcome: PipelineOutcome): string {
  const seconds = outcome.elapsedMs / 1000;
  const rate = seconds > 0 ? Math.round(outcome.records / seconds) : 0;
  const shard = outcome.shard === undefined ? "" : ` (shard ${outcome.shard.index}/${outcome.shard.count})`;
  const open = outcome.slices.filter((slice) => slice.open).length;
  const streamOnly = outcome.destinations.every((destination) => destination.stream);
  const status =
    outcome.status === "complete"
      ? open === 0
        ? "complete"
        : `done, ${open} open slice${open === 1 ? "" : "s"} to redo once settled`
      : outcome.status === "stopped"
        ? streamOnly
          ? "stopped (stdout only: nothing to resume)"
          : "stopped, resumable"
        : "failed";
  // A slice that gave up is not cut short by the stop its giving up caused.
  const stoppedByStop = outcome.status === "stopped" && !hasCode(outcome.error, ERROR_CODES.SLICE_GAVE_UP);
  const cutShort = stoppedByStop
    ? outcome.slices.filter((slice) => slice.status === "pending" && slice.attempts > 0).length
    : 0;
  // Without state, a rerun starts the window over: nothing is "redone" of this run.
  const left = cutShort > 0 ? ` (${cutShort} cut short${streamOnly ? "" : ", redone by the next run"})` : "";
  const lines = [
    `${outcome.pipeline}${shard}: ${status} — ${outcome.committed} slices exported, ${outcome.skipped} already done, ` +
      `${outcome.remaining} left${left}; ${outcome.records.toLocaleString("en-US")} records in ${seconds.toFixed(1)}s (${rate.toLocaleString("en-US")} rec/s)`,
  ];
  for (const destination of outcome.destinations) {
    if (destination.stream) {
      lines.push(`  ${destination.format} → stdout`);
      continue;
    }
    const replaced = destination.replacedSurrogates;
    // Text the service sent that no reader takes, changed on the way: said, never silent.
    const surrogates =
      replaced > 0
        ? `, ${replaced.toLocaleString("en-US")} lone surrogate${replaced === 1 ? "" : "s"} written as U+FFFD`
        : "";
    lines.push(
      `  ${destination.format}${destination.gzip ? " (gzip)" : ""} → ${destination.location}: ${destination.files} files, ${destination.rows.toLocaleString("en-US")} rows, ${megabytes(destination.bytes)}${surrogates}; ${destination.manifest === undefined ? "no manifest written" : `manifest ${destination.manifest}`}`,
    );
  }
  return `${lines.join("\n")}\n`;
}
