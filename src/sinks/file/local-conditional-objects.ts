// Compare-and-swap on a local file for the output lock. Creation is atomic (link(2) fails when the
// name exists); a replace or remove first takes a guard file the same way, so of two runs taking over
// one stale lock only one succeeds.
import { createHash } from "node:crypto";
import type { ConditionalObjects } from "../../pipeline/contracts.js";

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

  /** Runs `action` holding the guard of `path`; undefined when another process holds it. */
  const guarded = async <T>(path: string, action: () => Promise<T>): Promise<T | undefined> => {
    const guard = `${path}.guard`;
    const mine = `${now()}`;
    if (!(await store.write(guard, mine, false))) {
      const held = await store.read(guard);
      const since = held === undefined ? NaN : Number(Buffer.from(held).toString("utf8"));
      if (!(now() - since > GUARD_STALE_MS)) return undefined;
      await store.remove(guard);
      if (!(await store.write(guard, mine, false))) return undefined;
    }
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
