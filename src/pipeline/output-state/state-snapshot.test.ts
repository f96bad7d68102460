import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fileKey } from "./state-files.js";
import { filesOf } from "./state-force.js";
import type { CommittedFile, CommittedSlice, RunState } from "./state-schema.js";
import { replaceSnapshot } from "./state-snapshot.js";

const file = (sink: number, path: string): CommittedFile => ({
  sink,
  path,
  rows: 3,
  bytes: 10,
  sha256: "a".repeat(64),
});

const slice = (start: string, files: CommittedFile[]): CommittedSlice => ({
  start,
  end: "2026-03-12T10:30:00.000Z",
  committed_at: "2026-03-12T10:30:01.000Z",
  read: 3,
  expected: 3,
  duplicates: 0,
  files,
});

const empty = (): RunState => ({
  version: 1,
  pipeline: "billing",
  fingerprint: "f",
  journal_seq: 0,
  slices: {},
  batches: {},
  superseded: {},
  rechecks: {},
  pending: {},
});

const allFiles = (state: RunState): Set<string> =>
  new Set(
    [...Object.keys(state.slices), ...Object.keys(state.superseded), ...Object.keys(state.batches)].flatMap(
      (id) => filesOf(state, id).map(fileKey),
    ),
  );

describe("replaceSnapshot", () => {
  it("yesterday's committed snapshot becomes today's superseded files: not done, still in place until today's commits", () => {
    const state = empty();
    const old = [file(0, "20260210T000000Z-0000.parquet"), file(1, "20260210T000000Z-0000.ndjson")];
    state.slices["20260210T000000Z"] = slice("2026-02-10T00:00:00.000Z", old);
    state.rechecks["20260210T000000Z"] = [];
    expect(replaceSnapshot(state, "20260211T000000Z")).toBe(true);
    expect(state.slices).toEqual({});
    expect(state.rechecks).toEqual({});
    expect(state.superseded).toEqual({ "20260211T000000Z": old });
  });

  it("the snapshot's own committed slice is redone too; its batch export in progress is kept for the resume", () => {
    const state = empty();
    state.slices["20260211T000000Z"] = slice("2026-02-11T00:00:00.000Z", [file(0, "a.parquet")]);
    state.batches["20260211T000000Z"] = { tokens: { "0": "t" }, created_at: "x", parts: {} };
    state.batches["20260209T000000Z"] = {
      tokens: { "0": "u" },
      created_at: "x",
      parts: { p: { read: 1, expected: 1, duplicates: 0, files: [file(0, "part.parquet")] } },
    };
    expect(replaceSnapshot(state, "20260211T000000Z")).toBe(true);
    expect(state.slices).toEqual({});
    expect(Object.keys(state.batches)).toEqual(["20260211T000000Z"]);
    expect(state.superseded["20260211T000000Z"]?.map((f) => f.path).sort()).toEqual([
      "a.parquet",
      "part.parquet",
    ]);
  });

  it("a state with nothing but the snapshot's own superseded files is left as it is", () => {
    const state = empty();
    state.superseded["20260211T000000Z"] = [file(0, "a.parquet")];
    const before = structuredClone(state);
    expect(replaceSnapshot(state, "20260211T000000Z")).toBe(false);
    expect(state).toEqual(before);
    expect(replaceSnapshot(empty(), "20260211T000000Z")).toBe(false);
  });

  it("for any state: no file is forgotten, and only the snapshot's id holds any afterwards", () => {
    const ids = fc.constantFrom("20260209T000000Z", "20260210T000000Z", "20260211T000000Z");
    const files = fc.array(
      fc.record({ sink: fc.integer({ min: 0, max: 1 }), path: fc.constantFrom("a", "b", "c", "d") }),
      { maxLength: 3 },
    );
    const entries = fc.array(fc.tuple(fc.constantFrom("slices", "superseded", "batches"), ids, files), {
      maxLength: 6,
    });
    fc.assert(
      fc.property(entries, ids, (written, snapshotId) => {
        const state = empty();
        for (const [map, id, named] of written) {
          const committed = named.map((f) => file(f.sink, f.path));
          if (map === "slices") state.slices[id] = slice("2026-02-10T00:00:00.000Z", committed);
          else if (map === "superseded") state.superseded[id] = committed;
          else
            state.batches[id] = {
              tokens: {},
              created_at: "x",
              parts: { p: { read: 0, expected: 0, duplicates: 0, files: committed } },
            };
        }
        const before = allFiles(state);
        const snapshotBatch = structuredClone(state.batches[snapshotId]);
        replaceSnapshot(state, snapshotId);
        expect(allFiles(state)).toEqual(before);
        expect(state.slices).toEqual({});
        expect(Object.keys(state.superseded).every((id) => id === snapshotId)).toBe(true);
        expect(state.batches[snapshotId]).toEqual(snapshotBatch);
        expect(Object.keys(state.batches).every((id) => id === snapshotId)).toBe(true);
      }),
    );
  });
});
