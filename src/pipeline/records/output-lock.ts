// One run per output: a lock object beside the state, written with a compare-and-swap so two runs
// (a CronJob overlapping last night's, a backfill beside the nightly) cannot both write one output.
// The holder renews a lease; a lock whose lease expired, or whose process is gone from this host, is
// taken over. Every commit and state write is fenced: it goes ahead only while the lease, measured on
// this process's monotonic clock since the last renewal, still runs, so a holder paused past its
// lease (and perhaps taken over) writes nothing more. Shards lock their own state, so the shards of
// one backfill still run side by side.
import { hostname } from "node:os";
import { performance } from "node:perf_hooks";
import { ConfigError, StoppedError } from "../../errors.js";
import type { Logger } from "../../logger.js";
import type { OutputStore, RunInfo } from "../../core/contracts.js";
import { warnUnlocked } from "../../sinks/open-output-store.js";
import type { UnlockedOutput } from "../../sinks/open-output-store.js";
import { acquireLock } from "./lock-acquire.js";
import type { HeldLock } from "./lock-acquire.js";
import { describeHolder, readLockRecord } from "./lock-record.js";
import type { LockRecord } from "./lock-record.js";
import { shardSuffix } from "../plan/shard.js";
import type { Shard } from "../plan/shard.js";
import { STATE_DIRECTORY } from "./state.js";

/** Long enough to ride out a stalled event loop, short enough that a dead host's lock frees soon. */
export const LOCK_LEASE_MS = 120_000;

/** The shortest lease `MDQ_LOCK_LEASE_MS` may set: it is renewed every third of it. */
export const MIN_LOCK_LEASE_MS = 1500;

export interface OutputLockOptions {
  stores: readonly OutputStore[];
  /** Outputs whose destination cannot hold a lock (`lock: "none"`); each gets a warning naming it. */
  unlocked?: readonly UnlockedOutput[];
  path: string;
  run: RunInfo;
  log: Logger;
  leaseMs?: number;
  /** The wall clock the lease in the file is written in. */
  now?: () => number;
  /** The clock the fence measures the lease on: never set back, never paused with the process. */
  monotonic?: () => number;
  host?: string;
  pid?: number;
  /** Whether a process of this host is still running. */
  isAlive?: (pid: number) => boolean;
  /** Replace a lock that cannot be read or whose lease lies too far ahead (`run --break-lock`). */
  breakLock?: boolean;
}

export interface OutputLock {
  /** Extends the lease now; the timer calls it every third of the lease. False once the lock is lost. */
  renew(): Promise<boolean>;
  /**
   * Resolves while the lease still runs (renewing first when half of it has passed); otherwise marks
   * the lock lost and throws its OUTPUT_LOCK_LOST StoppedError. Awaited before every commit and state
   * or manifest write.
   */
  fence(): Promise<void>;
  /**
   * Aborted, with an OUTPUT_LOCK_LOST StoppedError, once another run has taken the lock over or this
   * run's lease ran out: the run must stop writing, since the output may be another run's now.
   */
  readonly lost: AbortSignal;
  /** Tags (writer-tag.ts) of runs whose lock this one took over while they may still live. */
  readonly spared: ReadonlySet<string>;
  release(): Promise<void>;
}

/** The lock's object name; a shard locks its own state, not the whole output. */
export function lockObjectPath(shard?: Shard): string {
  return `${STATE_DIRECTORY}/lock${shardSuffix(shard)}.json`;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

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
    throw new ConfigError(message, [{ path: "MDQ_LOCK_LEASE_MS", message }]);
  }
  return value;
}

/** Takes the lock of every store that has one (once per location), or none and throws. */
export async function lockOutputs(options: OutputLockOptions): Promise<OutputLock> {
  const now = options.now ?? Date.now;
  const monotonic = options.monotonic ?? (() => performance.now());
  const leaseMs = options.leaseMs ?? leaseFromEnv();
  const pid = options.pid ?? process.pid;
  const since = new Date(now()).toISOString();
  const body = (): string =>
    `${JSON.stringify({
      run_id: options.run.runId,
      pipeline: options.run.pipelineName,
      pid,
      host: options.host ?? hostname(),
      since,
      lease_until: new Date(now() + leaseMs).toISOString(),
      lease_ms: leaseMs,
    } satisfies LockRecord)}\n`;

  // The lease runs from before the body naming its end was made, so this side never overestimates it.
  let renewedAt = monotonic();
  const held: HeldLock[] = [];
  const spared = new Set<string>();
  warnUnlocked(options.log, options.unlocked ?? []);
  const seen = new Set<string>();
  try {
    for (const store of options.stores) {
      if (store.conditional === undefined || seen.has(store.location)) continue;
      seen.add(store.location);
      const lock = await acquireLock(store.conditional, store.location, {
        path: options.path,
        body,
        leaseMs,
        now,
        pid,
        host: options.host ?? hostname(),
        isAlive: options.isAlive ?? processAlive,
        breakLock: options.breakLock === true,
        log: options.log,
      });
      held.push(lock);
      if (lock.previousWriter !== undefined) spared.add(lock.previousWriter);
      // Holding the lock, what a killed holder left half-written of it is this run's to remove.
      const own = new Set([options.path, `${options.path}.guard`]);
      await store.removeLeftovers?.((path) => own.has(path));
    }
  } catch (error) {
    await Promise.all(
      held.map((lock) => lock.objects.remove(options.path, lock.version).catch(() => undefined)),
    );
    throw error;
  }

  let lost = false;
  const loss = new AbortController();
  const lose = (error: StoppedError): void => {
    if (lost) return;
    lost = true;
    loss.abort(error);
  };
  const expired = (): boolean => monotonic() - renewedAt >= leaseMs;
  const loseToExpiry = (): void => {
    const seconds = ((monotonic() - renewedAt) / 1000).toFixed(1);
    options.log.error(
      { lock: options.path, since_renewal_s: Number(seconds), lease_ms: leaseMs },
      "The output lock's lease ran out (the process was paused, or renewing failed); another run may have taken the output over. This run stops writing.",
    );
    lose(
      new StoppedError(
        `this run's lease on the output lock ran out (${seconds} s since it was last renewed, lease ${leaseMs} ms: the process was paused, or renewing failed), so another run may have taken the output over; this run stopped writing and left the output as it was`,
        { code: "OUTPUT_LOCK_LOST" },
      ),
    );
  };
  const loseTo = async (lock: HeldLock): Promise<void> => {
    const current = await lock.objects.read(options.path).catch(() => undefined);
    const read = current === undefined ? undefined : readLockRecord(current.body);
    const holder = read !== undefined && "record" in read ? read.record : undefined;
    options.log.error(
      { to: lock.location, lock: options.path, holder },
      "Lost the output lock: another run took it over (this run's lease had expired). This run stops writing.",
    );
    const by = holder === undefined ? "another run" : describeHolder(holder);
    lose(
      new StoppedError(
        `${by} took over the lock of ${lock.location} after this run's lease expired; this run stopped writing and left the output to it`,
        { code: "OUTPUT_LOCK_LOST" },
      ),
    );
  };

  const renewOnce = async (): Promise<boolean> => {
    if (held.length === 0) return true;
    if (lost) return false;
    if (expired()) {
      loseToExpiry();
      return false;
    }
    const startedAt = monotonic();
    for (const lock of held) {
      const version = await lock.objects.replace(options.path, body(), lock.version);
      if (version !== undefined) {
        lock.version = version;
        continue;
      }
      // A busy guard (another run looking at the lock) fails the swap too; the lock is still ours then.
      if ((await lock.objects.read(options.path))?.version === lock.version) return false;
      await loseTo(lock);
      return false;
    }
    renewedAt = startedAt;
    return true;
  };
  // One renewal at a time: two swaps from one version would make the second look like a takeover.
  let renewing: Promise<boolean> | undefined;
  const renew = (): Promise<boolean> =>
    (renewing ??= renewOnce().finally(() => (renewing = undefined))).then((ok) => ok && !lost);

  const timer = setInterval(() => {
    renew().catch((error: unknown) =>
      options.log.warn(
        { error: error instanceof Error ? error.message : String(error) },
        "Renewing the output lock failed; retrying.",
      ),
    );
  }, leaseMs / 3);
  timer.unref();
  return {
    renew,
    async fence() {
      // Outputs without a lock (stdout) have no lease to run out.
      if (held.length === 0) return;
      if (!lost && !expired() && monotonic() - renewedAt > leaseMs / 2)
        await renew().catch((error: unknown) =>
          options.log.warn(
            { error: error instanceof Error ? error.message : String(error) },
            "Renewing the output lock before a commit failed; the lease still runs.",
          ),
        );
      if (!lost && expired()) loseToExpiry();
      if (lost) throw loss.signal.reason;
    },
    lost: loss.signal,
    spared,
    async release() {
      clearInterval(timer);
      await renewing?.catch(() => undefined);
      if (lost) return;
      await Promise.all(held.map((lock) => lock.objects.remove(options.path, lock.version)));
    },
  };
}
