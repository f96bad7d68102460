import { describe, expect, it } from "vitest";
import { prefetch } from "./prefetch.js";

describe("prefetch", () => {
  it("asks for the next item before the current one is consumed", async () => {
    const log: string[] = [];
    async function* source(): AsyncGenerator<number> {
      for (let index = 0; index < 3; index++) {
        log.push(`fetch ${index}`);
        yield index;
      }
    }
    const seen: number[] = [];
    for await (const item of prefetch(source())) {
      await new Promise((resolve) => setImmediate(resolve));
      log.push(`use ${item}`);
      seen.push(item);
    }
    expect(seen).toEqual([0, 1, 2]);
    expect(log.indexOf("fetch 1")).toBeLessThan(log.indexOf("use 0"));
  });

  it("surfaces an error at its position and closes the source on break", async () => {
    let closed = false;
    async function* source(): AsyncGenerator<number> {
      try {
        yield 1;
        yield 2;
        yield 3;
      } finally {
        closed = true;
      }
    }
    for await (const item of prefetch(source())) if (item === 1) break;
    expect(closed).toBe(true);

    async function* failing(): AsyncGenerator<number> {
      yield 1;
      throw new Error("boom");
    }
    const seen: number[] = [];
    await expect(
      (async () => {
        for await (const item of prefetch(failing())) seen.push(item);
      })(),
    ).rejects.toThrow("boom");
    expect(seen).toEqual([1]);
  });
});
