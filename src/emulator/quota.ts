// The daily request quota per client: a UTC-day counter on the injected clock.
import type { Clock } from "./options.js";

export interface Quota {
  /** Spends one request; returns what remains, or undefined when the day's quota is gone. */
  take(clientId: string): number | undefined;
  remaining(clientId: string): number;
  /** Seconds until the quota resets (next UTC midnight). */
  secondsToReset(): number;
}

const DAY_MS = 86_400_000;

export function createQuota(limit: number, clock: Clock): Quota {
  const used = new Map<string, { day: number; count: number }>();
  const current = (clientId: string) => {
    const day = Math.floor(clock() / DAY_MS);
    let entry = used.get(clientId);
    if (!entry || entry.day !== day) used.set(clientId, (entry = { day, count: 0 }));
    return entry;
  };
  return {
    take(clientId) {
      const entry = current(clientId);
      if (entry.count >= limit) return undefined;
      entry.count++;
      return limit - entry.count;
    },
    remaining: (clientId) => limit - current(clientId).count,
    secondsToReset: () => Math.ceil((DAY_MS - (clock() % DAY_MS)) / 1000),
  };
}
