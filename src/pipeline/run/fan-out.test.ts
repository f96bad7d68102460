import { describe, expect, it } from "vitest";
import { fanOut } from "./fan-out.js";

async function* numbers(count: number, log: string[]): AsyncGenerator<number> {
  try {
    for (let index = 0; index < count; index++) {
      log.push(`pull ${index}`);
      yield index;
    }
  } finally {
    log.push("closed");
  }
}

async function collect<T>(input: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of input) out.push(item);
  return out;
}

describe("fanOut", () => {
  it("gives every consumer every item in order", async () => {
    const log: string[] = [];
    const [a, b, c] = fanOut(numbers(5, log), 3);
    const results = await Promise.all([collect(a!), collect(b!), collect(c!)]);
    expect(results).toEqual([
      [0, 1, 2, 3, 4],
      [0, 1, 2, 3, 4],
      [0, 1, 2, 3, 4],
    ]);
    expect(log.filter((line) => line.startsWith("pull"))).toHaveLength(5);
  });

  it("pulls the next item only when every consumer asked for it", async () => {
    const log: string[] = [];
    const [fast, slow] = fanOut(numbers(3, log), 2);
    const fastIterator = fast![Symbol.asyncIterator]();
    const first = fastIterator.next();
    await new Promise((resolve) => setImmediate(resolve));
    expect(log).toEqual([]);
    const slowIterator = slow![Symbol.asyncIterator]();
    await slowIterator.next();
    expect((await first).value).toBe(0);
    expect(log).toEqual(["pull 0"]);
    await fastIterator.return!();
    await slowIterator.return!();
    expect(log).toContain("closed");
  });

  it("rejects every consumer when the source fails", async () => {
    async function* failing(): AsyncGenerator<number> {
      yield 1;
      throw new Error("page 2 failed");
    }
    const [a, b] = fanOut(failing(), 2);
    const results = await Promise.allSettled([collect(a!), collect(b!)]);
    expect(results.map((result) => result.status)).toEqual(["rejected", "rejected"]);
  });

  it("lets the others go on when one consumer stops early", async () => {
    const log: string[] = [];
    const [quitter, stayer] = fanOut(numbers(4, log), 2);
    const quit = (async () => {
      for await (const item of quitter!) if (item === 1) break;
    })();
    const [, all] = await Promise.all([quit, collect(stayer!)]);
    expect(all).toEqual([0, 1, 2, 3]);
    expect(log).toContain("closed");
  });
});
