import { describe, expect, it } from "vitest";
import { defaultComponents, kindOf } from "../../components/environment.js";
import type { SourceSpec } from "../../kinds/source-spec.js";
import { committedToRedo, hasOpenSlice, strayOpenSlices } from "./slices-to-run.js";
import type { SlicePlan } from "../plan/plan.js";
import type { CommittedSlice, RunState } from "../output-state/state-schema.js";

const at = (time: string) => new Date(`2026-11-26T${time}Z`);
const plan = (id: string, start: string, end: string): SlicePlan => ({
  slice: { index: 0, id, start: at(start), end: at(end) },
  retrieval: "pit",
  expected: undefined,
  requests: 1,
  open: false,
});
const committed = (start: string, end: string, open = false): CommittedSlice => ({
  start: at(start).toISOString(),
  end: at(end).toISOString(),
  committed_at: "2026-11-26T05:00:00.000Z",
  read: 1,
  expected: 1,
  duplicates: 0,
  files: [],
  ...(open ? { open: true as const } : {}),
});
const state = (slices: Record<string, CommittedSlice>): RunState => ({
  version: 1,
  pipeline: "p",
  fingerprint: "f",
  journal_seq: 0,
  slices,
  batches: {},
  pending: {},
  superseded: {},
  rechecks: {},
});
const query = { kind: "jobs", api: "v3", strategy: "pit", page_size: 100 } as SourceSpec;

describe("committedToRedo", () => {
  it("redoes committed slices recorded open or cut short by an earlier window, and nothing else", () => {
    const slices = [
      plan("A", "01:00:00", "01:15:00"),
      plan("B", "01:15:00", "01:30:00"),
      plan("C", "01:30:00", "01:45:00"),
      plan("D", "01:45:00", "02:00:00"),
      plan("E", "02:00:00", "02:05:00"),
    ];
    const redo = committedToRedo(
      slices,
      state({
        A: committed("01:00:00", "01:15:00"),
        B: committed("01:15:00", "01:30:00", true),
        C: committed("01:30:00", "01:40:00"),
        // Committed over the whole slice; this window clips it: nothing is missing.
        E: committed("02:00:00", "02:15:00"),
      }),
    );
    expect([...redo].sort()).toEqual(["B", "C"]);
  });
});

describe("strayOpenSlices", () => {
  it("plans the open slices the window does not cover over their committed range, open only if still unsettled", () => {
    const recorded = state({
      X: committed("01:30:00", "01:43:57.692", true),
      Y: committed("05:45:00", "05:50:00", true),
      Z: committed("02:00:00", "02:15:00"),
      W: committed("03:00:00", "03:15:00", true),
    });
    const stray = strayOpenSlices({
      planned: [plan("W", "03:00:00", "03:15:00")],
      state: recorded,
      query,
      kind: kindOf(defaultComponents(), "jobs"),
      now: at("06:00:00"),
      settleMs: 15 * 60_000,
      wallClock: () => at("06:00:00"),
    });
    expect(stray.map((s) => [s.slice.id, s.slice.end.toISOString(), s.open])).toEqual([
      ["X", "2026-11-26T01:43:57.692Z", false],
      ["Y", "2026-11-26T05:50:00.000Z", true],
    ]);
    expect(hasOpenSlice(recorded)).toBe(true);
    expect(hasOpenSlice(state({ Z: committed("02:00:00", "02:15:00") }))).toBe(false);
  });

  // Regression: a stray slice was judged open from the run's now alone, so a --now a little ahead of
  // the clock settled a slice the service had not indexed yet, and no later run redid it.
  it("keeps a stray slice open while it ends after settle before the machine's clock, whatever the run's now", () => {
    const recorded = state({
      X: committed("05:30:00", "05:45:00", true),
      Y: committed("05:15:00", "05:30:00", true),
    });
    const stray = (wallClock: string) =>
      strayOpenSlices({
        planned: [],
        state: recorded,
        query,
        kind: kindOf(defaultComponents(), "jobs"),
        now: at("06:04:00"),
        settleMs: 15 * 60_000,
        wallClock: () => at(wallClock),
      }).map((s) => [s.slice.id, s.open]);
    expect(stray("05:56:00")).toEqual([
      ["X", true],
      ["Y", false],
    ]);
    expect(stray("06:10:00")).toEqual([
      ["X", false],
      ["Y", false],
    ]);
  });
});
