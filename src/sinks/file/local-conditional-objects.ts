// Compare-and-swap on a local file for the output lock. Creation is atomic (link(2) fails when the
// name exists); a replace or remove first takes a guard file the same way, so of two runs taking over
// one stale lock only one succeeds. A guard a killed process left is broken under a claim file taken
// the same way, so of two runs that find it stale only one breaks it.
import { createHash, randomBytes } from "node:crypto";
import type { ConditionalObjects } from "../../core/contracts.js";

export interface LocalObjectPrimitives {
  read(path: string): Promise<Uint8Array | undefined>;
  /** Writes the whole object; with `replace` false only when it does not exist (false otherwise). */
  write(path: string, body: string, replace?: boolean): Promise<boolean>;
  remove(path: string): Promise<void>;
}

/** A guard older than this was left by a process killed between taking and releasing it. */
const GUARD_STALE_MS = 30_000;

function versionOf(body: Uint8Array | string): string {
  return createHash("sha256").update(body).digest("hex");
}

export function createLocalConditionalObjects(
  store: LocalObjectPrimitives,
  now: () => number = Date.now,
): ConditionalObjects {
  const read = async (path: string): Promise<{ body: string; version: string } | undefined> => {
    const bytes = await store.read(path);
    return bytes === undefined
      ? undefined
      : { body: Buffer.from(bytes).toString("utf8"), version: versionOf(bytes) };
  };

  /** A guard's text: when it was taken (to tell a killed holder's), and a part no other guard repeats. */
  const stamp = (): string => `${now()} ${randomBytes(6).toString("hex")}`;
  const isStale = (text: Uint8Array): boolean => {
    const since = Number(Buffer.from(text).toString("utf8").split(" ")[0]);
    return !(Number.isFinite(since) && now() - since <= GUARD_STALE_MS);
  };

  /**
   * Creates `name` exclusively; one a killed process left (older than GUARD_STALE_MS) is first removed
   * under an exclusive claim named after its contents. A guard's text never repeats, so while the claim
   * is held and `name` still holds the text judged stale, no other run can have replaced it.
   */
  const takeExclusive = async (name: string, depth = 0): Promise<boolean> => {
    if (await store.write(name, stamp(), false)) return true;
    // A claim left by a killed breaker is itself broken the same way, a few levels deep at most.
    if (depth >= 3) return false;
    const held = await store.read(name);
    if (held !== undefined) {
      if (!isStale(held)) return false;
      const claim = `${name}.break-${versionOf(held).slice(0, 16)}`;
      if (!(await takeExclusive(claim, depth + 1))) return false;
      try {
        if ((await read(name))?.version !== versionOf(held)) return false;
        await store.remove(name);
      } finally {
        await store.remove(claim);
      }
    }
    return store.write(name, stamp(), false);
  };

  /** Runs `action` holding the guard of `path`; undefined when another process holds it. */
  const guarded = async <T>(path: string, action: () => Promise<T>): Promise<T | undefined> => {
    const guard = `${path}.guard`;
    if (!(await takeExclusive(guard))) return undefined;
    try {
      return await action();
    } finally {
      await store.remove(guard);
    }
  };

  return {
    async create(path, body) {
      return (await store.write(path, body, false)) ? versionOf(body) : undefined;
    },
    read,
    async replace(path, body, version) {
      return guarded(path, async () => {
        if ((await read(path))?.version !== version) return undefined;
        await store.write(path, body);
        return versionOf(body);
      });
    },
    async remove(path, version) {
      await guarded(path, async () => {
        if ((await read(path))?.version === version) await store.remove(path);
      });
    },
  };
}
