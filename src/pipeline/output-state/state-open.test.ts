// The state's refusals a run makes before it asks the service anything (`checkStateBeforePlan`) are
// the open's own: it refuses nothing the open would accept, with the open's message, and without the
// plan's slices (a window cut on another grid is the open's to refuse) it refuses exactly what the
// open refuses. Generated over committed hours, journals, fingerprints, --force windows and snapshots.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Slice } from "../../core/contracts.js";
import { createLocalStore } from "../../sinks/file/local-store.js";
import { checkStateBeforePlan, readRunState } from "./state-open.js";
import { StateStore } from "./state.js";
import type { StateOptionsBeforePlan, StoredState } from "./state-open.js";
import type { CommittedSlice, RunState } from "./state-schema.js";

const HOUR = 3_600_000;
const DAY_START = Date.UTC(2026, 10, 20);
const FINGERPRINTS = { current: "f-now", earlier: "f-before", other: "f-changed" };
// Never read: the stored state is handed in; the store gives the location the messages name.
const store = createLocalStore("/nonexistent/mdq-state-open");

const idOf = (hour: number): string =>
  new Date(DAY_START + hour * HOUR).toISOString().replace(/[-:]/g, "").replace(".000", "");

const hourSlice = (hour: number, hours = 1): Slice => ({
  index: hour,
  id: idOf(hour),
  start: new Date(DAY_START + hour * HOUR),
  end: new Date(DAY_START + (hour + hours) * HOUR),
});

function committed(hour: number): CommittedSlice {
  const { start, end, id } = hourSlice(hour);
  return {
    start: start.toISOString(),
    end: end.toISOString(),
    committed_at: end.toISOString(),
    read: 1,
    expected: 1,
    duplicates: 0,
    files: [{ sink: 0, path: `${id}.ndjson`, rows: 1, bytes: 10, sha256: "a".repeat(64) }],
  };
}

interface Case {
  /** Undefined: no state object (a journal alone is of a state moved away). */
  inObject: number[] | undefined;
  inJournal: number[];
  fingerprint: keyof typeof FINGERPRINTS;
  pipeline: string;
  force: boolean;
  window: { from: number; hours: number };
  snapshot: boolean;
}

function storedOf(test: Case): StoredState {
  const state: RunState = {
    version: 1,
    pipeline: test.pipeline,
    fingerprint: FINGERPRINTS[test.fingerprint],
    journal_seq: 0,
    slices: Object.fromEntries((test.inObject ?? []).map((hour) => [idOf(hour), committed(hour)])),
    batches: {},
    superseded: {},
    rechecks: {},
    pending: {},
  };
  return {
    bytes: test.inObject === undefined ? undefined : Buffer.from(JSON.stringify(state)),
    journal: test.inJournal.map((hour, at) => ({
      path: `_mdq-export/state.journal/${String(at + 1).padStart(12, "0")}.json`,
      seq: at + 1,
      entry: { version: 1, slice: idOf(hour), values: { slices: committed(hour) } },
    })),
  };
}

/** A fresh output: no state object, no journal, nothing forced. */
const FRESH: Case = {
  inObject: undefined,
  inJournal: [],
  fingerprint: "current",
  pipeline: "jobs",
  force: false,
  window: { from: 0, hours: 24 },
  snapshot: false,
};

function optionsOf(test: Case): StateOptionsBeforePlan {
  const { from, hours } = test.window;
  return {
    store,
    path: "_mdq-export/state.json",
    pipeline: "jobs",
    fingerprint: FINGERPRINTS.current,
    earlierFingerprints: [FINGERPRINTS.earlier],
    force: test.force,
    forceWindow: { start: hourSlice(from).start, end: hourSlice(from + hours).start },
    snapshot: test.snapshot,
  };
}

/** The window's planned slices: hourly, or the one slice of a rolling snapshot. */
function plannedOf(test: Case): Slice[] {
  const { from, hours } = test.window;
  if (test.snapshot) return [hourSlice(from, hours)];
  return Array.from({ length: hours }, (_, at) => hourSlice(from + at));
}

/** The message the call throws, or undefined when it returns. */
async function refusal(call: () => unknown): Promise<string | undefined> {
  try {
    await call();
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

const hours = fc.uniqueArray(fc.integer({ min: 0, max: 23 }), { maxLength: 8 });
const cases: fc.Arbitrary<Case> = fc.record({
  inObject: fc.option(hours, { nil: undefined }),
  inJournal: hours,
  fingerprint: fc.constantFrom("current", "earlier", "other"),
  pipeline: fc.constantFrom("jobs", "jobs", "jobs", "other-jobs"),
  force: fc.boolean(),
  window: fc
    .tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 1, max: 24 }))
    .map(([from, length]) => ({ from, hours: Math.min(length, 24 - from) })),
  snapshot: fc.boolean(),
});

describe("checkStateBeforePlan", () => {
  it("refuses nothing the open accepts, and says what the open says", async () => {
    await fc.assert(
      fc.asyncProperty(cases, async (test) => {
        const stored = storedOf(test);
        const early = await refusal(() => checkStateBeforePlan(stored, optionsOf(test)));
        if (early === undefined) return;
        const opened = await refusal(() =>
          readRunState({ ...optionsOf(test), stored, planned: plannedOf(test) }),
        );
        expect(opened).toBe(early);
      }),
      { numRuns: 400 },
    );
  });

  it("without planned slices, refuses exactly what the open refuses, but for a rolling snapshot's --force", async () => {
    await fc.assert(
      fc.asyncProperty(cases, async (test) => {
        // Its replacement needs the planned slice: without it, the open leaves a --force over part of it.
        fc.pre(!(test.snapshot && test.force));
        const stored = storedOf(test);
        const early = await refusal(() => checkStateBeforePlan(stored, optionsOf(test)));
        const opened = await refusal(() => readRunState({ ...optionsOf(test), stored, planned: [] }));
        expect(early).toBe(opened);
      }),
      { numRuns: 400 },
    );
  });

  it("refuses a changed pipeline, and a --force that leaves committed slices of it outside its window", () => {
    const changed: Case = {
      inObject: [0, 1],
      inJournal: [2],
      fingerprint: "other",
      pipeline: "jobs",
      force: false,
      window: { from: 0, hours: 3 },
      snapshot: false,
    };
    expect(() => checkStateBeforePlan(storedOf(changed), optionsOf(changed))).toThrow(
      "the pipeline changed since the output",
    );
    const part = { ...changed, force: true, window: { from: 0, hours: 2 } };
    expect(() => checkStateBeforePlan(storedOf(part), optionsOf(part))).toThrow(
      "1 committed slice(s) from 2026-11-20T02:00:00.000Z to 2026-11-20T03:00:00.000Z lie outside the forced window",
    );
    const earlier = { ...changed, fingerprint: "earlier" as const };
    expect(() => checkStateBeforePlan(storedOf(earlier), optionsOf(earlier))).not.toThrow();
  });

  it("folds what was read into each state anew: a change to an opened state leaves the read as the output holds it", async () => {
    const dir = await mkdtemp(join(tmpdir(), "mdq-state-open-"));
    try {
      const id = idOf(0);
      const batch = { tokens: { "0": "t-0" }, created_at: "2026-11-20T01:00:00.000Z", parts: {} };
      // A state object with nothing in it, and the journal entry of a batch export begun after it.
      const stored: StoredState = {
        ...storedOf({ ...FRESH, inObject: [] }),
        journal: [{ path: "j", seq: 1, entry: { version: 1, slice: id, values: { batches: batch } } }],
      };
      const options = { ...optionsOf(FRESH), store: createLocalStore(dir), stored };
      const opened = await StateStore.open(options);
      await opened.recordBatchToken(id, "1", "t-1");
      expect(opened.batchProgress(id)?.tokens).toEqual({ "0": "t-0", "1": "t-1" });
      const again = await readRunState(options);
      expect(again.state.batches[id]?.tokens).toEqual({ "0": "t-0" });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
