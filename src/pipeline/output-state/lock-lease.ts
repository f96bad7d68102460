// How long an output lock's lease runs: two minutes, or what `MDQ_LOCK_LEASE_MS` asks for. Read when
// a run opens, before anything is asked of the service, so a value refused costs no request.
import { configErrorAt } from "../../errors.js";

/** Long enough to ride out a stalled event loop, short enough that a dead host's lock frees soon. */
export const LOCK_LEASE_MS = 120_000;

/** The shortest lease `MDQ_LOCK_LEASE_MS` may set: it is renewed every third of it. */
export const MIN_LOCK_LEASE_MS = 1500;

/**
 * The lease `MDQ_LOCK_LEASE_MS` asks for, else LOCK_LEASE_MS: a host whose processes pause for longer
 * than two minutes (a suspended laptop) may want a longer one. A value that is not a whole number of
 * milliseconds from MIN_LOCK_LEASE_MS up is refused, not ignored.
 */
export function leaseFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const text = env.MDQ_LOCK_LEASE_MS;
  if (text === undefined || text === "") return LOCK_LEASE_MS;
  const value = Number(text);
  if (!Number.isInteger(value) || value < MIN_LOCK_LEASE_MS) {
    const message = `MDQ_LOCK_LEASE_MS must be a whole number of milliseconds from ${MIN_LOCK_LEASE_MS} up, found "${text}"`;
    throw configErrorAt("MDQ_LOCK_LEASE_MS", message);
  }
  return value;
}
