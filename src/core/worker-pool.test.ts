import { describe, expect, it } from "vitest";
import { autoWorkerThreads, createWorkerPool } from "./worker-pool.js";

describe("worker pool", () => {
  it("auto leaves two cores to the main thread and what serves it, and never exceeds the slices at once", () => {
    expect(autoWorkerThreads(4, 1)).toBe(0);
    expect(autoWorkerThreads(4, 2)).toBe(0);
    expect(autoWorkerThreads(4, 3)).toBe(1);
    expect(autoWorkerThreads(4, 16)).toBe(4);
    expect(autoWorkerThreads(2, 8)).toBe(2);
  });

  it("offers no runner without threads, or for a module that is not compiled (TypeScript sources)", async () => {
    const none = createWorkerPool(0);
    expect(none.runner(new URL("./worker-pool.ts", import.meta.url), "createWorkerPool")).toBeUndefined();
    const pool = createWorkerPool(1);
    expect(pool.runner(new URL("./no-such-worker.js", import.meta.url), "run")).toBeUndefined();
    await pool.close();
  });
});
