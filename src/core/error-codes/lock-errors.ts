// The codes of the output lock: another run holds it, this run lost it, or it cannot be read.
import type { ErrorCodeInfo } from "./error-code-info.js";

export const LOCK_ERRORS = {
  OUTPUT_LOCKED: {
    exit: "resumable",
    meaning:
      "Another run holds the output's lock (the message names its run id, pid, host and since when); this run stopped before touching the output.",
    action:
      "Wait for that run to end and run the command again; a lock whose lease expired, or whose process is gone from this run's PID namespace, is taken over by itself.",
  },
  OUTPUT_LOCK_LOST: {
    exit: "resumable",
    meaning:
      "This run's output lock lease ran out while it ran (the process was paused, or renewing failed), or the lock object is no longer the one this run wrote (another run took it over, or it was removed); this run stopped before its next commit or state write and left the output as it was.",
    action:
      "Make sure one run at a time writes an output (a schedule that does not overlap, a CronJob with concurrencyPolicy: Forbid); if the other run did not finish, run the command again.",
  },
  OUTPUT_LOCK_INVALID: {
    exit: "failed",
    meaning:
      "The output's lock file cannot be read as a lock (not JSON, a missing field, a `lease_until` that is not a date), or its lease lies more than three lease periods ahead of this host's clock (the holder's clock is wrong); no run can tell whether its holder lives, so none takes it.",
    action:
      "Make sure no run is writing the output, then run the same command with `--break-lock`, which replaces such a lock (and only such a lock) with this run's.",
  },
} as const satisfies Record<string, ErrorCodeInfo>;
