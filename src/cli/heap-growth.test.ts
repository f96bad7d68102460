import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { HEAP_GROWING_PERCENT, heapGrowthFlag } from "./heap-growth.js";

describe("heapGrowthFlag", () => {
  it("bounds the heap's growth when node was started without a choice of its own", () => {
    expect(heapGrowthFlag([])).toBe(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
    expect(heapGrowthFlag(["--enable-source-maps", "--max-old-space-size=4096"])).toBe(
      `--heap-growing-percent=${HEAP_GROWING_PERCENT}`,
    );
  });

  it("leaves the user's own choice on node's command line alone, in either spelling", () => {
    expect(heapGrowthFlag(["--heap-growing-percent=0"])).toBeUndefined();
    expect(heapGrowthFlag(["--heap-growing-percent", "300"])).toBeUndefined();
  });
});

describe("the bound, set after the process started", () => {
  // The flag is read by V8 at every full collection: a process that sets it at run time collects when
  // its old generation reaches 2.5 times what survived, where V8 alone would let it grow further.
  // Counted in full collections over one fixed allocation pattern, not timed.
  function fullCollections(setBound: boolean): number {
    const script = `
      const v8 = require("node:v8");
      const { PerformanceObserver, constants } = require("node:perf_hooks");
      if (${setBound}) v8.setFlagsFromString("--heap-growing-percent=${HEAP_GROWING_PERCENT}");
      let majors = 0;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) if (entry.detail.kind === constants.NODE_PERFORMANCE_GC_MAJOR) majors++;
      }).observe({ entryTypes: ["gc"] });
      // What an export keeps (a live set that stays) and what it makes (batches that live a while).
      const live = Array.from({ length: 300000 }, (_, i) => "live:" + i + ":" + "x".repeat(40));
      const kept = [];
      for (let i = 0; i < 1500; i++) {
        kept.push(Array.from({ length: 3000 }, (_, j) => "v" + i + ":" + j + "y".repeat(20)));
        if (kept.length > 20) kept.shift();
      }
      setTimeout(() => process.stdout.write(String(live.length > 0 ? majors : -1)), 50);`;
    const child = spawnSync(process.execPath, ["-e", script], { encoding: "utf8" });
    expect(child.status).toBe(0);
    return Number(child.stdout);
  }

  it("makes V8 collect more often than it would on its own", () => {
    expect(fullCollections(true)).toBeGreaterThan(fullCollections(false));
  });
});
