// What an output lock file holds, read back with suspicion: the file may come from another version,
// a host with a wrong clock, or a hand edit. Everything shown of it in a message is escaped.
import { escapeControl } from "../../api/redact.js";

export interface LockRecord {
  run_id: string;
  pipeline: string;
  pid: number;
  host: string;
  since: string;
  lease_until: string;
  /** The holder's lease; older versions did not write it. */
  lease_ms?: number;
  /** The holder's PID namespace (`readlink /proc/self/ns/pid`); absent off Linux and in older versions. */
  pid_ns?: string;
  /** The holder's boot (`/proc/sys/kernel/random/boot_id`); absent off Linux and in older versions. */
  boot_id?: string;
}

/**
 * How far ahead of this host's clock a lease may end, in lease periods, before the holder's clock is
 * taken to be wrong: a holder renews a lease of one period, so more than a few is never a live lease.
 */
export const MAX_LEASES_AHEAD = 3;

type ReadLock = { record: LockRecord } | { problem: string };

/** A field of the file as text for a message: control characters escaped, long values cut. */
export function showLockValue(value: unknown): string {
  const text = escapeControl(typeof value === "string" ? value : (JSON.stringify(value) ?? String(value)));
  return text.length <= 120 ? text : `${text.slice(0, 120)}…`;
}

/** The lock file's record, or what makes it unusable (naming the field and the value). */
export function readLockRecord(body: string): ReadLock {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return { problem: `it is not JSON (it starts "${showLockValue(body.slice(0, 60))}")` };
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed))
    return { problem: "it is not a JSON object" };
  const fields = parsed as Record<string, unknown>;
  for (const name of ["run_id", "host", "lease_until"] as const) {
    if (typeof fields[name] !== "string")
      return { problem: `its ${name} is ${showLockValue(fields[name])}, not a string` };
  }
  const pid = fields.pid;
  if (typeof pid !== "number" || !Number.isSafeInteger(pid) || pid <= 0)
    return { problem: `its pid is ${showLockValue(pid)}, not a process id` };
  if (Number.isNaN(Date.parse(String(fields.lease_until))))
    return { problem: `its lease_until "${showLockValue(fields.lease_until)}" is not a date and time` };
  const leaseMs = fields.lease_ms;
  if (
    leaseMs !== undefined &&
    (typeof leaseMs !== "number" || !Number.isSafeInteger(leaseMs) || leaseMs <= 0)
  )
    return { problem: `its lease_ms is ${showLockValue(leaseMs)}, not a whole number of milliseconds` };
  return {
    record: {
      run_id: String(fields.run_id),
      pipeline: typeof fields.pipeline === "string" ? fields.pipeline : "",
      pid,
      host: String(fields.host),
      since: typeof fields.since === "string" ? fields.since : "",
      lease_until: String(fields.lease_until),
      ...(leaseMs === undefined ? {} : { lease_ms: leaseMs }),
      // Anything but text is as good as absent: the holder's pid then never decides, its lease does.
      ...(typeof fields.pid_ns === "string" ? { pid_ns: fields.pid_ns } : {}),
      ...(typeof fields.boot_id === "string" ? { boot_id: fields.boot_id } : {}),
    },
  };
}

/** "run R (pid P on H)", escaped: how messages name a holder. */
export function describeHolder(record: LockRecord): string {
  return `run ${showLockValue(record.run_id)} (pid ${record.pid} on ${showLockValue(record.host)})`;
}

/** The latest a lease may end, seen from `now`, before the holder's clock is taken to be wrong. */
export function latestSaneLease(record: LockRecord, leaseMs: number, now: number): number {
  return now + MAX_LEASES_AHEAD * Math.max(leaseMs, record.lease_ms ?? 0);
}
