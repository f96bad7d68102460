// The context a sink or a source is handed for one slice, for tests that call them directly.
import type { RunInfo, SliceContext } from "../../src/core/contracts.js";
import { createSilentLogger } from "../../src/logger.js";

const HOUR_MS = 3_600_000;

/**
 * The one-hour slice from `start` of `run`, as the runner hands it over: its id from its start
 * (20261121T000000Z), a silent log, no duplicate seen yet.
 */
export function hourSliceContext(
  run: RunInfo,
  start: Date,
  options: { index?: number; signal?: AbortSignal } = {},
): SliceContext {
  return {
    signal: options.signal ?? new AbortController().signal,
    log: createSilentLogger(),
    slice: {
      index: options.index ?? 0,
      id: start.toISOString().replace(/[-:]|\.\d+/g, ""),
      start,
      end: new Date(start.getTime() + HOUR_MS),
    },
    run,
    stats: { duplicates: 0 },
  };
}
