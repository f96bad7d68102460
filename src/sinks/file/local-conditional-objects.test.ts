import { describe, expect, it } from "vitest";
import { createLocalConditionalObjects } from "./local-conditional-objects.js";
import type { LocalObjectPrimitives } from "./local-conditional-objects.js";

const now = Date.parse("2026-11-23T02:00:00Z");
const LOCK = "_mdq-export/lock.json";
const GUARD = `${LOCK}.guard`;

/** A promise with its resolver, for events between two racers. */
function event(): { happened: Promise<void>; happen(): void } {
  let happen = (): void => undefined;
  const happened = new Promise<void>((resolve) => (happen = resolve));
  return { happened, happen };
}

/**
 * One run's view of files shared in memory; `beforeRead` may hold a read after the value was taken,
 * as when a process is paused between reading a file and acting on what it read.
 */
function filesOf(
  files: Map<string, string>,
  beforeRead: (path: string) => Promise<void> = async () => undefined,
): LocalObjectPrimitives {
  return {
    async read(path) {
      const value = files.get(path);
      await beforeRead(path);
      return value === undefined ? undefined : Buffer.from(value);
    },
    async write(path, body, replace = true) {
      if (!replace && files.has(path)) return false;
      files.set(path, body);
      return true;
    },
    async remove(path) {
      files.delete(path);
    },
  };
}

describe("local compare-and-swap", () => {
  it("lets one of two runs replace a stale lock when a killed run left the guard, at the worst interleaving", async () => {
    for (const stale of [String(now - 60_000), "not a time"]) {
      const files = new Map([
        [LOCK, "stale lock"],
        [GUARD, stale],
      ]);
      const version = (await createLocalConditionalObjects(filesOf(files)).read(LOCK))?.version ?? "";
      const aReadLock = event();
      const bDone = event();
      let bGuardReads = 0;
      // B read the stale guard, then paused until A, past the guard, was checking the lock's version;
      // A waits there until B is through, so both would check the same version if both got past.
      const a = createLocalConditionalObjects(
        filesOf(files, async (path) => {
          if (path !== LOCK) return;
          aReadLock.happen();
          await bDone.happened;
        }),
        () => now,
      );
      const b = createLocalConditionalObjects(
        filesOf(files, async (path) => {
          if (path === GUARD && ++bGuardReads === 1) await aReadLock.happened;
        }),
        () => now,
      );
      const first = a.replace(LOCK, "run A", version);
      const second = b.replace(LOCK, "run B", version).finally(bDone.happen);
      const results = await Promise.all([first, second]);
      expect(results.filter((result) => result !== undefined)).toHaveLength(1);
      expect(files.get(LOCK)).toBe(results[0] === undefined ? "run B" : "run A");
      expect([...files.keys()].filter((path) => path.includes(".guard"))).toEqual([]);
    }
  });

  it("leaves a guard a living run holds", async () => {
    const files = new Map([
      [LOCK, "lock"],
      [GUARD, `${now - 1000} 0a1b2c`],
    ]);
    const objects = createLocalConditionalObjects(filesOf(files), () => now);
    const version = (await objects.read(LOCK))?.version ?? "";
    expect(await objects.replace(LOCK, "mine", version)).toBeUndefined();
    expect(files.get(LOCK)).toBe("lock");
    expect(files.get(GUARD)).toBe(`${now - 1000} 0a1b2c`);
  });
});
