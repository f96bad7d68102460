// Time as the client sees it: injectable so retries, polling and token expiry are tested without sleeping.
import { whenAborted } from "../core/when-aborted.js";

/**
 * A clock: the current time and an abortable wait.
 * @example
 * const clock: Clock = { now: () => fakeNow, sleep: async (ms) => { fakeNow += ms; } };
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Resolves after `ms`; rejects with the signal's reason when it is aborted. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      stopFollowing();
      resolve();
    }, ms);
    const stopFollowing = whenAborted(signal, () => {
      clearTimeout(timer);
      reject(signal?.reason);
    });
  });
}

/** The real clock. */
export const systemClock: Clock = { now: () => Date.now(), sleep };
