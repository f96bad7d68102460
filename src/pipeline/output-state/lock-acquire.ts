// Taking one output lock: create it, or take over one whose holder is gone, with compare-and-swap
// writes only (never a read, a decision and a delete), so of runs racing for it exactly one wins. A
// lock file that cannot be read, or whose lease lies too far ahead, is refused with the way to break it.
import { EtlError, OutputLockedError } from "../../errors.js";
import type { Logger } from "../../logger.js";
import type { ConditionalObjects } from "../../core/contracts.js";
import {
  MAX_LEASES_AHEAD,
  describeHolder,
  latestSaneLease,
  readLockRecord,
  showLockValue,
} from "./lock-record.js";
import type { LockRecord } from "./lock-record.js";
import { sharesProcessSpace } from "./lock-holder.js";
import type { ProcessSpace } from "./lock-holder.js";
import { writerTag } from "../../core/writer-tag.js";

export interface HeldLock {
  objects: ConditionalObjects;
  location: string;
  version: string;
  /** The writer tag of the run whose lease expired under this run's takeover: it may still live. */
  previousWriter?: string;
}

interface AcquireOptions {
  path: string;
  body(): string;
  leaseMs: number;
  now(): number;
  pid: number;
  /** Where this run's pids mean something; a holder's pid decides only within the same space. */
  space: ProcessSpace;
  /** Whether a process of this PID namespace is still running. */
  isAlive(pid: number): boolean;
  breakLock: boolean;
  log: Logger;
}

/** What to do about a lock another run's file holds. */
type Verdict =
  | { take: "dead" | "expired"; record: LockRecord }
  | { take: "broken"; record?: LockRecord; why: string }
  | { refuse: Error };

function judge(current: string, location: string, where: string, options: AcquireOptions): Verdict {
  const read = readLockRecord(current);
  const breakHint = `if no run is writing this output, run the same command with --break-lock to replace it (or remove ${where})`;
  if ("problem" in read) {
    if (options.breakLock) return { take: "broken", why: read.problem };
    return {
      refuse: new EtlError(
        "OUTPUT_LOCK_INVALID",
        `the lock ${where} cannot be read: ${read.problem}; ${breakHint}`,
      ),
    };
  }
  const { record } = read;
  const now = options.now();
  // Only a pid of this PID namespace since this boot says whether its holder lives; elsewhere the
  // same number may be a live holder's in another container, so its lease decides.
  if (sharesProcessSpace(record, options.space) && record.pid !== options.pid && !options.isAlive(record.pid))
    return { take: "dead", record };
  const leaseEnd = Date.parse(record.lease_until);
  if (leaseEnd < now) return { take: "expired", record };
  if (leaseEnd > latestSaneLease(record, options.leaseMs, now)) {
    const why = `its lease until ${showLockValue(record.lease_until)} lies more than ${MAX_LEASES_AHEAD} lease periods after this host's clock (${new Date(now).toISOString()})`;
    if (options.breakLock) return { take: "broken", record, why };
    return {
      refuse: new EtlError(
        "OUTPUT_LOCK_INVALID",
        `the lock ${where} of ${describeHolder(record)} cannot be trusted: ${why}, so that host's clock is wrong or the file was edited; ${breakHint}`,
      ),
    };
  }
  const locked = lockedError(location, where, record, options.space);
  if (!options.breakLock) return { refuse: locked };
  return {
    refuse: new OutputLockedError(
      `--break-lock refuses to break a lock whose lease still runs: ${locked.message}`,
    ),
  };
}

export async function acquireLock(
  objects: ConditionalObjects,
  location: string,
  options: AcquireOptions,
): Promise<HeldLock> {
  const where = `${location}/${options.path}`;
  if (options.breakLock && (await objects.read(options.path)) === undefined)
    options.log.warn({ to: location, lock: options.path }, "--break-lock: there was no lock to break.");
  // A few rounds: each lost race means another run changed the lock, and the next read shows it.
  for (let round = 0; round < 5; round++) {
    const created = await objects.create(options.path, options.body());
    if (created !== undefined) return { objects, location, version: created };
    const current = await objects.read(options.path);
    if (current === undefined) continue;
    const verdict = judge(current.body, location, where, options);
    if ("refuse" in verdict) throw verdict.refuse;
    // The swap succeeds only while the file is still the one judged: of racing runs, one takes it.
    const taken = await objects.replace(options.path, options.body(), current.version);
    if (taken === undefined) continue;
    const previous = verdict.record;
    if (verdict.take === "broken")
      options.log.warn(
        { to: location, lock: options.path, reason: verdict.why, previous: showLockValue(current.body) },
        "--break-lock: replaced a lock that could not be trusted.",
      );
    else
      options.log.warn(
        { to: location, lock: options.path, previous },
        "Took over the lock of a run that is gone (its process ended or its lease expired).",
      );
    // A run whose lease merely expired may be paused, not dead: its temporary files stay its own.
    return {
      objects,
      location,
      version: taken,
      ...(previous === undefined || verdict.take === "dead"
        ? {}
        : { previousWriter: writerTag(previous.run_id) }),
    };
  }
  const current = await objects.read(options.path);
  const read = current === undefined ? undefined : readLockRecord(current.body);
  if (read !== undefined && "record" in read) throw lockedError(location, where, read.record, options.space);
  throw new OutputLockedError(`the lock ${where} keeps changing; another run is starting`);
}

function lockedError(
  location: string,
  where: string,
  holder: LockRecord,
  space: ProcessSpace,
): OutputLockedError {
  const show = showLockValue;
  // A holder of this host name in another PID namespace (or boot) is waited for, which its pid alone
  // would not explain.
  const elsewhere =
    holder.host === space.host && !sharesProcessSpace(holder, space)
      ? `; it ran in another PID namespace or boot than this run (${holder.pid_ns === undefined ? "its namespace is not recorded" : `namespace ${show(holder.pid_ns)}`}), so its pid says nothing here and its lease decides`
      : "";
  return new OutputLockedError(
    `the output ${location} is locked by run ${show(holder.run_id)} (pid ${holder.pid} on ${show(holder.host)}, since ${show(holder.since)}, lease until ${show(holder.lease_until)}): another run is writing it${elsewhere}. Run again once it has finished; a lock whose lease expired is taken over, and so is one whose process is gone from this PID namespace, or remove ${where} if you are sure no run holds it`,
  );
}
