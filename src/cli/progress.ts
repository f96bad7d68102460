// The progress of a run: a line rewritten in place on a terminal, a periodic log line otherwise.
import type { Writable } from "node:stream";
import type { Logger } from "../logger.js";
import type { RunProgress } from "../pipeline/run/run-options.js";
import type { LedgerProgress } from "../quota-ledger/ledger-gate-options.js";
import { argumentError } from "./command-options.js";
import {
  PROGRESS_INTERVAL_FORMS,
  PROGRESS_INTERVAL_PATTERN,
  progressIntervalMs,
} from "../config/limits-schema.js";
import type { Limits } from "../config/limits-schema.js";

function formatDuration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m ${String(seconds % 60).padStart(2, "0")}s`;
  return `${Math.floor(minutes / 60)}h ${String(minutes % 60).padStart(2, "0")}m`;
}

/** Records per second and the time left, from what is done so far (records if known, else slices). */
export function estimate(snapshot: RunProgress): { rate: number; etaMs: number | undefined } {
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

/** The ledger's part of the line: the fleet's count, then this run's claim and what it spent of it. */
function formatLedger(ledger: LedgerProgress): string {
  const count = (value: number): string => value.toLocaleString("en-US");
  const fleet = ledger.remaining === undefined ? "ledger" : `ledger ${count(ledger.remaining)} left`;
  const claim = ledger.claim === undefined ? "" : `, claim ${count(ledger.claim)}`;
  return `${fleet}${claim}, spent ${count(ledger.spent)} of ${count(ledger.reserved)} reserved`;
}

export function formatProgress(snapshot: RunProgress): string {
  const { rate, etaMs } = estimate(snapshot);
  const parts = [
    `${snapshot.slicesDone}/${snapshot.slicesTotal} slices`,
    `${snapshot.records.toLocaleString("en-US")} records`,
    `${Math.round(rate).toLocaleString("en-US")} rec/s`,
  ];
  if (snapshot.quotaRemaining !== undefined)
    parts.push(`quota ${snapshot.quotaRemaining.toLocaleString("en-US")}`);
  if (snapshot.ledger !== undefined) parts.push(formatLedger(snapshot.ledger));
  if (etaMs !== undefined && snapshot.slicesDone < snapshot.slicesTotal)
    parts.push(`ETA ${formatDuration(etaMs)}`);
  return parts.join(" · ");
}

/**
 * Milliseconds between progress lines: `--progress-interval` when given (refused unless a duration
 * such as 30s, or off/0), else the pipeline's `limits.progress_interval`; undefined when off.
 */
export function chooseProgressInterval(
  flag: string | undefined,
  pipeline: Limits["progress_interval"],
): number | undefined {
  if (flag === undefined) return progressIntervalMs(pipeline);
  const value = flag.trim();
  if (value === "off" || value === "0") return undefined;
  if (!PROGRESS_INTERVAL_PATTERN.test(value))
    throw argumentError(
      "--progress-interval",
      `--progress-interval "${JSON.stringify(flag).slice(1, -1)}": ${PROGRESS_INTERVAL_FORMS}`,
    );
  return progressIntervalMs(value);
}

/** The timers progress is reported by; tests inject their own so that nothing waits on the wall clock. */
export interface ProgressTimers {
  setInterval(callback: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

const SYSTEM_TIMERS: ProgressTimers = {
  setInterval: (callback, ms) => setInterval(callback, ms).unref(),
  clearInterval: (handle) => clearInterval(handle as NodeJS.Timeout),
};

/** How often a terminal's line is redrawn: often enough to look alive, whatever the log interval. */
const TTY_REDRAW_MS = 500;

interface ProgressOptions {
  tty: boolean;
  stream: Writable;
  log: Logger;
  /** Milliseconds between two log lines without a terminal; undefined: no progress at all. */
  intervalMs: number | undefined;
  timers?: ProgressTimers;
}

/**
 * Reports a run's progress: on a terminal a line redrawn in place; without one (cron, Kubernetes) an
 * info line every `intervalMs`, with the counts as fields and the same text as the terminal's in `line`.
 * @example
 * const progress = startProgress(run.progress, { tty: false, stream: process.stderr, log, intervalMs: 30_000 });
 * progress.stop();
 */
export function startProgress(read: () => RunProgress, options: ProgressOptions): { stop(): void } {
  if (options.intervalMs === undefined) return { stop: () => undefined };
  const timers = options.timers ?? SYSTEM_TIMERS;
  const handle = timers.setInterval(
    () => {
      const snapshot = read();
      if (options.tty) {
        options.stream.write(`\r\u001b[2K${formatProgress(snapshot)}`);
        return;
      }
      const { rate, etaMs } = estimate(snapshot);
      options.log.info(
        {
          ...snapshot,
          rate: Math.round(rate),
          ...(etaMs === undefined ? {} : { etaMs: Math.round(etaMs) }),
          line: formatProgress(snapshot),
        },
        "Progress.",
      );
    },
    options.tty ? TTY_REDRAW_MS : options.intervalMs,
  );
  return {
    stop(): void {
      timers.clearInterval(handle);
      if (options.tty) options.stream.write(`\r\u001b[2K`);
    },
  };
}
