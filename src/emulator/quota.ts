// The daily request quota per client: a counter per quota day (a UTC day unless shortened) on the
// injected clock.
import type { Clock } from "./options.js";

export interface Quota {
  /** Spends one request; returns what remains, or undefined when the day's quota is gone. */
  take(clientId: string): number | undefined;
  /** Seconds until the quota resets (the next day's start: UTC midnight for a full day). */
  secondsToReset(): number;
}

export function createQuota(limit: number, clock: Clock, dayLengthMs = 86_400_000): Quota {
  // A day of 0 ms would divide by zero: the shortest day is 1 ms.
  const dayMs = Math.max(1, dayLengthMs);
  const used = new Map<string, { day: number; count: number }>();
  return {
    take(clientId) {
      const day = Math.floor(clock() / dayMs);
      let entry = used.get(clientId);
      if (!entry || entry.day !== day) used.set(clientId, (entry = { day, count: 0 }));
      if (entry.count >= limit) return undefined;
      entry.count++;
      return limit - entry.count;
    },
    secondsToReset: () => Math.ceil((dayMs - (clock() % dayMs)) / 1000),
  };
}
