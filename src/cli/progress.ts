// The progress of a run: a line rewritten in place on a terminal, a periodic log line otherwise.
import type { Writable } from "node:stream";
import type { Logger } from "../logger.js";
import type { RunProgress } from "../pipeline/run/run-pipeline.js";

/** What the progress line shows: the run's counts as the pipeline reports them. */
export type ProgressSnapshot = RunProgress;

function formatDuration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m ${String(seconds % 60).padStart(2, "0")}s`;
  return `${Math.floor(minutes / 60)}h ${String(minutes % 60).padStart(2, "0")}m`;
}

/** Records per second and the time left, from what is done so far (records if known, else slices). */
export function estimate(snapshot: ProgressSnapshot): { rate: number; etaMs: number | undefined } {
  const rate = snapshot.elapsedMs > 0 ? (snapshot.records * 1000) / snapshot.elapsedMs : 0;
  let fraction: number | undefined;
  if (snapshot.expectedRecords !== undefined && snapshot.expectedRecords > 0) {
    fraction = Math.min(1, snapshot.records / snapshot.expectedRecords);
  } else if (snapshot.slicesTotal > 0) {
    fraction = snapshot.slicesDone / snapshot.slicesTotal;
  }
  if (fraction === undefined || fraction <= 0) return { rate, etaMs: undefined };
  return { rate, etaMs: (snapshot.elapsedMs * (1 - fraction)) / fraction };
}

export function formatProgress(snapshot: ProgressSnapshot): string {
  const { rate, etaMs } = estimate(snapshot);
  const parts = [
    `${snapshot.slicesDone}/${snapshot.slicesTotal} slices`,
    `${snapshot.records.toLocaleString("en-US")} records`,
    `${Math.round(rate).toLocaleString("en-US")} rec/s`,
  ];
  if (snapshot.quotaRemaining !== undefined)
    parts.push(`quota ${snapshot.quotaRemaining.toLocaleString("en-US")}`);
  if (etaMs !== undefined && snapshot.slicesDone < snapshot.slicesTotal)
    parts.push(`ETA ${formatDuration(etaMs)}`);
  return parts.join(" · ");
}

export interface ProgressReporter {
  stop(): void;
}

/** Reports every `intervalMs`; on a TTY the line is redrawn, elsewhere an info log line is written. */
export function startProgress(
  read: () => ProgressSnapshot,
  options: { tty: boolean; stream: Writable; log: Logger; intervalMs?: number },
): ProgressReporter {
  const interval = options.intervalMs ?? (options.tty ? 500 : 30_000);
  const timer = setInterval(() => {
    const snapshot = read();
    if (options.tty) options.stream.write(`\r\u001b[2K${formatProgress(snapshot)}`);
    else options.log.info({ ...snapshot, ...estimate(snapshot) }, "Progress.");
  }, interval);
  timer.unref();
  return {
    stop(): void {
      clearInterval(timer);
      if (options.tty) options.stream.write(`\r\u001b[2K`);
    },
  };
}
