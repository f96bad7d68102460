// One run per output: a lock object beside the state, written with a compare-and-swap so two runs
// (a CronJob overlapping last night's, a backfill beside the nightly) cannot both write one output.
// The holder renews a lease; a lock whose lease expired, or whose process is provably gone (a pid of
// this PID namespace since this boot: lock-holder.ts), is taken over. Every commit and state write is
// fenced: it goes ahead only while the lease, measured on this process's monotonic clock since the
// last renewal, still runs, and while the lock object is still the version this run wrote (one small
// read), so a holder paused past its lease, or taken over for any reason, writes nothing more. Shards
// lock their own state, so the shards of one backfill still run side by side.
import { performance } from "node:perf_hooks";
import type { StoppedError } from "../../errors.js";
import { errorMessage } from "../../errors.js";
import type { Logger } from "../../logger.js";
import type { OutputStore, RunInfo } from "../../core/contracts.js";
import { warnUnlocked } from "../../sinks/open-output-store.js";
import type { UnlockedOutput } from "../../sinks/open-output-store.js";
import { acquireLock } from "./lock-acquire.js";
import type { HeldLock } from "./lock-acquire.js";
import { processAlive, thisProcessSpace } from "./lock-holder.js";
import type { ProcessSpace } from "./lock-holder.js";
import { leaseFromEnv } from "./lock-lease.js";
import { leaseRanOut, lockTakenOver } from "./lock-loss.js";
import type { LockRecord } from "./lock-record.js";
import { shardSuffix } from "../plan/shard.js";
import type { Shard } from "../plan/shard.js";
import { STATE_DIRECTORY } from "./state-schema.js";

interface OutputLockOptions {
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
  pid?: number;
  /** Where this process's pids mean something (host, PID namespace, boot); read from /proc unless given. */
  space?: Partial<ProcessSpace>;
  /** Whether a process of this PID namespace is still running. */
  isAlive?: (pid: number) => boolean;
  /** Replace a lock that cannot be read or whose lease lies too far ahead (`run --break-lock`). */
  breakLock?: boolean;
}

export interface OutputLock {
  /** Extends the lease now; the timer calls it every third of the lease. False once the lock is lost. */
  renew(): Promise<boolean>;
  /**
   * Resolves while the lease still runs (renewing first when half of it has passed) and the lock object
   * is still the one this run wrote; otherwise marks the lock lost and throws its OUTPUT_LOCK_LOST
   * StoppedError. Awaited before every commit and state or manifest write.
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

/** Takes the lock of every store that has one (once per location), or none and throws. */
export async function lockOutputs(options: OutputLockOptions): Promise<OutputLock> {
  const now = options.now ?? Date.now;
  const monotonic = options.monotonic ?? (() => performance.now());
  const leaseMs = options.leaseMs ?? leaseFromEnv();
  const pid = options.pid ?? process.pid;
  const space: ProcessSpace = { ...thisProcessSpace(), ...options.space };
  const since = new Date(now()).toISOString();
  const body = (): string =>
    `${JSON.stringify({
      run_id: options.run.runId,
      pipeline: options.run.pipelineName,
      pid,
      host: space.host,
      since,
      lease_until: new Date(now() + leaseMs).toISOString(),
      lease_ms: leaseMs,
      ...(space.pidNamespace === undefined ? {} : { pid_ns: space.pidNamespace }),
      ...(space.bootId === undefined ? {} : { boot_id: space.bootId }),
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
        space,
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

  // Aborted once, with the first loss: a later one does not replace its reason.
  const loss = new AbortController();
  const lose = (error: StoppedError): void => loss.abort(error);
  const expired = (): boolean => monotonic() - renewedAt >= leaseMs;
  const loseToExpiry = (): void =>
    lose(leaseRanOut(options.log, options.path, monotonic() - renewedAt, leaseMs));
  /**
   * Whether the lock object is still the version this run last wrote, read back from its store: a
   * lock taken over while this run's own clock says the lease still runs (a holder that misjudged it,
   * a clock of another host) is lost here, naming whoever holds it now.
   */
  const stillHeld = async (lock: HeldLock): Promise<boolean> => {
    const current = await lock.objects.read(options.path);
    if (current?.version === lock.version) return true;
    lose(lockTakenOver(options.log, { to: lock.location, lock: options.path }, current?.body));
    return false;
  };

  // Renewals and the fence's reads one at a time: a read while this run's own swap lands would see a
  // version it does not know yet, and two swaps from one version would look like a takeover. Callers
  // at once share one renewal, or one read.
  let queue: Promise<unknown> = Promise.resolve();
  const sharedInTurn = <T>(task: () => Promise<T>): (() => Promise<T>) => {
    let running: Promise<T> | undefined;
    return () => {
      if (running !== undefined) return running;
      const result = queue.then(task);
      queue = result.catch(() => undefined);
      return (running = result.finally(() => (running = undefined)));
    };
  };

  const renewInTurn = sharedInTurn(async (): Promise<boolean> => {
    if (held.length === 0) return true;
    if (loss.signal.aborted) return false;
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
      await stillHeld(lock);
      return false;
    }
    renewedAt = startedAt;
    return true;
  });
  const renew = (): Promise<boolean> => renewInTurn().then((ok) => ok && !loss.signal.aborted);
  const confirmHeld = sharedInTurn(async () => {
    for (const lock of held) if (!loss.signal.aborted) await stillHeld(lock);
  });

  const warnOf = (message: string) => (error: unknown) => {
    options.log.warn({ error: errorMessage(error) }, message);
    return false;
  };
  const timer = setInterval(() => {
    renew().catch(warnOf("Renewing the output lock failed; retrying."));
  }, leaseMs / 3);
  timer.unref();
  return {
    renew,
    async fence() {
      // Outputs without a lock (stdout) have no lease to run out.
      if (held.length === 0) return;
      // A renewal that went through swapped the lock at its version: that is the read back too.
      let renewed = false;
      if (!loss.signal.aborted && !expired() && monotonic() - renewedAt > leaseMs / 2)
        renewed = await renew().catch(
          warnOf("Renewing the output lock before a commit failed; the lease still runs."),
        );
      if (!loss.signal.aborted && !renewed) await confirmHeld();
      if (!loss.signal.aborted && expired()) loseToExpiry();
      if (loss.signal.aborted) throw loss.signal.reason;
    },
    lost: loss.signal,
    spared,
    async release() {
      clearInterval(timer);
      await queue;
      if (loss.signal.aborted) return;
      await Promise.all(held.map((lock) => lock.objects.remove(options.path, lock.version)));
    },
  };
}
