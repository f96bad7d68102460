// One run per output: a lock object beside the state, written with a compare-and-swap so two runs
// (a CronJob overlapping last night's, a backfill beside the nightly) cannot both write one output.
// The holder renews a lease; a lock whose lease expired, or whose process is gone from this host, is
// taken over. Shards lock their own state, so the shards of one backfill still run side by side.
import { hostname } from "node:os";
import { ConfigError, OutputLockedError, StoppedError } from "../errors.js";
import type { Logger } from "../logger.js";
import type { ConditionalObjects, OutputStore, RunInfo } from "./contracts.js";
import { shardSuffix } from "./shard.js";
import type { Shard } from "./shard.js";
import { STATE_DIRECTORY } from "./state.js";

/** Long enough to ride out a stalled event loop, short enough that a dead host's lock frees soon. */
export const LOCK_LEASE_MS = 120_000;

/** The shortest lease `MDQ_LOCK_LEASE_MS` may set: it is renewed every third of it. */
export const MIN_LOCK_LEASE_MS = 1500;

interface LockRecord {
  run_id: string;
  pipeline: string;
  pid: number;
  host: string;
  since: string;
  lease_until: string;
}

export interface OutputLockOptions {
  stores: readonly OutputStore[];
  path: string;
  run: RunInfo;
  log: Logger;
  leaseMs?: number;
  now?: () => number;
  host?: string;
  pid?: number;
  /** Whether a process of this host is still running. */
  isAlive?: (pid: number) => boolean;
}

export interface OutputLock {
  /** Extends the lease now; the timer calls it every third of the lease. False once the lock is lost. */
  renew(): Promise<boolean>;
  /**
   * Aborted, with an OUTPUT_LOCK_LOST StoppedError, once another run has taken the lock over: the run
   * must stop writing, since the output is that run's now.
   */
  readonly lost: AbortSignal;
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

function parseRecord(body: string): LockRecord | undefined {
  try {
    const record = JSON.parse(body) as Partial<LockRecord>;
    return typeof record.run_id === "string" && typeof record.lease_until === "string"
      ? (record as LockRecord)
      : undefined;
  } catch {
    return undefined;
  }
}

interface Held {
  objects: ConditionalObjects;
  location: string;
  version: string;
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
  const leaseMs = options.leaseMs ?? leaseFromEnv();
  const isAlive = options.isAlive ?? processAlive;
  const host = options.host ?? hostname();
  const pid = options.pid ?? process.pid;
  const since = new Date(now()).toISOString();
  const body = (): string =>
    `${JSON.stringify({
      run_id: options.run.runId,
      pipeline: options.run.pipelineName,
      pid,
      host,
      since,
      lease_until: new Date(now() + leaseMs).toISOString(),
    } satisfies LockRecord)}\n`;

  const stale = (record: LockRecord | undefined): boolean =>
    record === undefined ||
    Date.parse(record.lease_until) < now() ||
    (record.host === host && record.pid !== pid && !isAlive(record.pid));

  const acquire = async (objects: ConditionalObjects, location: string): Promise<Held> => {
    // A few rounds: each lost race means another run changed the lock, and the next read shows it.
    for (let round = 0; round < 5; round++) {
      const created = await objects.create(options.path, body());
      if (created !== undefined) return { objects, location, version: created };
      const current = await objects.read(options.path);
      if (current === undefined) continue;
      const record = parseRecord(current.body);
      if (!stale(record)) throw lockedError(location, options.path, record as LockRecord);
      const taken = await objects.replace(options.path, body(), current.version);
      if (taken === undefined) continue;
      options.log.warn(
        { to: location, lock: options.path, previous: record ?? current.body.slice(0, 200) },
        "Took over the lock of a run that is gone (its process ended or its lease expired).",
      );
      return { objects, location, version: taken };
    }
    const record = parseRecord((await objects.read(options.path))?.body ?? "");
    if (record !== undefined) throw lockedError(location, options.path, record);
    throw new OutputLockedError(
      `the lock ${options.path} of ${location} keeps changing; another run is starting`,
    );
  };

  const held: Held[] = [];
  const seen = new Set<string>();
  try {
    for (const store of options.stores) {
      if (store.conditional === undefined || seen.has(store.location)) continue;
      seen.add(store.location);
      held.push(await acquire(store.conditional, store.location));
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
  const renew = async (): Promise<boolean> => {
    for (const lock of held) {
      if (lost) break;
      const version = await lock.objects.replace(options.path, body(), lock.version);
      if (version === undefined) {
        lost = true;
        const holder = parseRecord(
          (await lock.objects.read(options.path).catch(() => undefined))?.body ?? "",
        );
        options.log.error(
          { to: lock.location, lock: options.path, holder },
          "Lost the output lock: another run took it over (this run's lease had expired). This run stops writing.",
        );
        const by =
          holder === undefined ? "another run" : `run ${holder.run_id} (pid ${holder.pid} on ${holder.host})`;
        loss.abort(
          new StoppedError(
            `${by} took over the lock of ${lock.location} after this run's lease expired; this run stopped writing and left the output to it`,
            { code: "OUTPUT_LOCK_LOST" },
          ),
        );
      } else lock.version = version;
    }
    return !lost;
  };
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
    lost: loss.signal,
    async release() {
      clearInterval(timer);
      if (lost) return;
      await Promise.all(held.map((lock) => lock.objects.remove(options.path, lock.version)));
    },
  };
}

function lockedError(location: string, path: string, holder: LockRecord): OutputLockedError {
  return new OutputLockedError(
    `the output ${location} is locked by run ${holder.run_id} (pid ${holder.pid} on ${holder.host}, since ${holder.since}, lease until ${holder.lease_until}): another run is writing it. Run again once it has finished; a lock whose process is gone is taken over (at once on the same host, elsewhere when its lease expires), or remove ${path} if you are sure no run holds it`,
  );
}
