// How a run says it lost its output lock: its lease ran out on its own clock, or the lock object is no
// longer the one it wrote (another run took it over, or it was removed). Both stop the run before its
// next write with OUTPUT_LOCK_LOST (exit 75): the output is left to whoever holds the lock now.
import { StoppedError } from "../../errors.js";
import type { Logger } from "../../logger.js";
import { describeHolder, readLockRecord } from "./lock-record.js";

/** The loss of a lease that ran out `sinceRenewalMs` after its last renewal, logged. */
export function leaseRanOut(
  log: Logger,
  lock: string,
  sinceRenewalMs: number,
  leaseMs: number,
): StoppedError {
  const seconds = (sinceRenewalMs / 1000).toFixed(1);
  log.error(
    { lock, since_renewal_s: Number(seconds), lease_ms: leaseMs },
    "The output lock's lease ran out (the process was paused, or renewing failed); another run may have taken the output over. This run stops writing.",
  );
  return new StoppedError(
    `this run's lease on the output lock ran out (${seconds} s since it was last renewed, lease ${leaseMs} ms: the process was paused, or renewing failed), so another run may have taken the output over; this run stopped writing and left the output as it was`,
    { code: "OUTPUT_LOCK_LOST" },
  );
}

/** The loss of a lock whose object now holds `current` (undefined: removed), logged. */
export function lockTakenOver(
  log: Logger,
  where: { to: string; lock: string },
  current: string | undefined,
): StoppedError {
  const read = current === undefined ? undefined : readLockRecord(current);
  const holder = read !== undefined && "record" in read ? read.record : undefined;
  log.error(
    { ...where, holder },
    current === undefined
      ? "Lost the output lock: it was removed while this run held it. This run stops writing."
      : "Lost the output lock: another run took it over. This run stops writing.",
  );
  const what =
    current === undefined
      ? `the lock of ${where.to} was removed while this run held it (by hand, or by another run that took it over and ended)`
      : `${holder === undefined ? "another run" : describeHolder(holder)} took over the lock of ${where.to}`;
  return new StoppedError(
    `${what}; this run stopped writing before its next commit and left the output to the lock's holder`,
    { code: "OUTPUT_LOCK_LOST" },
  );
}
