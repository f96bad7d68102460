import { describe, expect, it } from "vitest";
import type { PipelineOutcome, SliceResult } from "../pipeline/run/run-outcome.js";
import { observePipeline } from "./observe-pipeline.js";
import { createRunTally } from "./run-tally.js";

function slice(id: string, index: number) {
  return { index, id, start: new Date(index * 3_600_000), end: new Date((index + 1) * 3_600_000) };
}

function result(id: string, status: SliceResult["status"], attempts: number): SliceResult {
  return {
    id,
    start: "",
    end: "",
    status,
    read: 0,
    expected: null,
    rows: 0,
    attempts,
    open: false,
  };
}

describe("observePipeline", () => {
  it("counts a slice that gave up as failed, one the run's stop cut short as stopped, one not begun as neither", () => {
    const tally = createRunTally();
    const events = observePipeline(tally);
    const [gaveUp, cutShort, done] = [slice("a", 0), slice("b", 1), slice("d", 3)];
    events.sliceStarted?.(gaveUp, 1);
    events.sliceStarted?.(cutShort, 1);
    events.sliceStarted?.(done, 1);
    events.sliceGaveUp?.(gaveUp, new Error("503 every time"));
    const outcome = {
      status: "stopped",
      slices: [
        result("a", "pending", 3),
        result("b", "pending", 1),
        result("c", "pending", 0),
        result("d", "skipped", 0),
      ],
    } as Partial<PipelineOutcome> as PipelineOutcome;
    events.finished?.(outcome);
    const slices = tally.snapshot().slices;
    expect(slices.a?.outcome).toBe("failed");
    expect(slices.b?.outcome).toBe("stopped");
    expect(slices.c).toBeUndefined();
    expect(slices.d?.outcome).toBe("skipped");
  });
});
