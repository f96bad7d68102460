// Time as the client sees it: injectable so retries, polling and token expiry are tested without sleeping.

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
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** The real clock. */
export const systemClock: Clock = { now: () => Date.now(), sleep };
