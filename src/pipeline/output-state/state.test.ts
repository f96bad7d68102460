import { copyFile, mkdtemp, readFile, readdir, rm, stat, writeFile } from "node:fs/promises";
import { mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { hasCode } from "../../errors.js";
import { createLocalStore } from "../../sinks/file/local-store.js";
import type { CommittedSlice } from "./state-schema.js";
import { StateStore } from "./state.js";
import { RECHECK_HISTORY_LIMIT } from "./state-schema.js";
import { filesOfInterruptedCommit } from "./state-files.js";

const STATE = "_mdq-export/state.json";
const JOURNAL = "_mdq-export/state.journal";
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "mdq-state-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const open = (force = false): Promise<StateStore> =>
  StateStore.open({ store: createLocalStore(dir), path: STATE, pipeline: "p", fingerprint: "f1", force });

function hour(index: number): { id: string; slice: CommittedSlice } {
  const start = new Date(Date.UTC(2026, 0, 1) + index * 3600_000);
  const id = start.toISOString().replace(/[-:]/g, "").replace(".000", "");
  return {
    id,
    slice: {
      start: start.toISOString(),
      end: new Date(start.getTime() + 3600_000).toISOString(),
      committed_at: start.toISOString(),
      read: 10,
      expected: 10,
      duplicates: 0,
      files: [{ sink: 0, path: `${id}-0001.ndjson`, rows: 10, bytes: 100, sha256: "a".repeat(64) }],
    },
  };
}

const journalNames = async (): Promise<string[]> => readdir(join(dir, JOURNAL)).catch(() => []);

describe("the state's journal", () => {
  it("a commit writes one small entry, not the state object; a reopen replays it; compact folds it in", async () => {
    const state = await open();
    const history = Array.from({ length: 5000 }, (_, index) => hour(index));
    for (const { id, slice } of history.slice(0, 2)) await state.commitSlice(id, slice);
    await state.compact();
    // A long history, written whole once.
    const seeded = JSON.parse(await readFile(join(dir, STATE), "utf8")) as { slices: object };
    for (const { id, slice } of history.slice(2)) Object.assign(seeded.slices, { [id]: slice });
    await writeFile(join(dir, STATE), JSON.stringify(seeded));

    const reopened = await open();
    const before = await stat(join(dir, STATE));
    const next = hour(5000);
    await reopened.commitSlice(next.id, next.slice);
    const after = await stat(join(dir, STATE));
    expect(after.mtimeMs).toBe(before.mtimeMs);
    const entries = await journalNames();
    expect(entries).toHaveLength(1);
    expect((await stat(join(dir, JOURNAL, entries[0] ?? ""))).size).toBeLessThan(1000);

    const replayed = await open();
    expect(replayed.isCommitted(next.id)).toBe(true);
    expect(Object.keys(replayed.state.slices)).toHaveLength(5001);
    // Opening with entries folds them into the object at once.
    expect(await journalNames()).toEqual([]);
    const folded = JSON.parse(await readFile(join(dir, STATE), "utf8")) as { slices: object };
    expect(Object.keys(folded.slices)).toHaveLength(5001);
  });

  it("entries a crash left after a compaction are not replayed over the newer state object", async () => {
    const state = await open();
    const { id, slice } = hour(1);
    await state.commitSlice(id, { ...slice, read: 1 });
    const [first] = await journalNames();
    if (first === undefined) throw new Error("no journal entry");
    await copyFile(join(dir, JOURNAL, first), join(dir, "older-entry.json"));
    await state.commitSlice(id, { ...slice, read: 2 });
    await state.compact();
    // Killed between the object's write and the removal of the entries it folded.
    await mkdir(join(dir, JOURNAL), { recursive: true });
    await copyFile(join(dir, "older-entry.json"), join(dir, JOURNAL, first));
    const reopened = await open();
    expect(reopened.state.slices[id]?.read).toBe(2);
  });

  it("reads a state written before the journal (indented, no journal_seq nor pending)", async () => {
    const { id, slice } = hour(3);
    const legacy = {
      version: 1,
      pipeline: "p",
      fingerprint: "f1",
      slices: { [id]: slice },
      batches: {},
      superseded: {},
      rechecks: { [id]: [{ checked_at: slice.start, run_id: "r", committed: 9, service: 10 }] },
    };
    await mkdir(join(dir, "_mdq-export"), { recursive: true });
    await writeFile(join(dir, STATE), `${JSON.stringify(legacy, null, 2)}\n`);
    const state = await open();
    expect(state.isCommitted(id)).toBe(true);
    expect(state.state.rechecks[id]).toHaveLength(1);
  });
});

describe("the state's bounds and gate", () => {
  it("keeps the latest re-checks of a slice, and reads back what it wrote", async () => {
    const state = await open();
    const { id, slice } = hour(0);
    await state.commitSlice(id, slice);
    for (let index = 0; index < RECHECK_HISTORY_LIMIT + 10; index++)
      await state.recordRecheck(id, {
        checked_at: `t${index}`,
        run_id: "r",
        committed: index,
        service: index + 1,
      });
    const reopened = await open();
    const history = reopened.state.rechecks[id] ?? [];
    expect(history).toHaveLength(RECHECK_HISTORY_LIMIT);
    expect(history.at(-1)?.committed).toBe(RECHECK_HISTORY_LIMIT + 9);
    expect(history[0]?.committed).toBe(10);
  });

  it("refuses to write a value its schema would refuse, and the state stays readable", async () => {
    const state = await open();
    const { id, slice } = hour(0);
    const refused = await state.commitSlice(id, { ...slice, expected: 59.5 }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(hasCode(refused, "STATE_REFUSED")).toBe(true);
    expect(await journalNames()).toEqual([]);
    expect(state.isCommitted(id)).toBe(false);
    // The refused change was undone: the whole state written next holds nothing it would refuse.
    const other = hour(1);
    await state.commitSlice(other.id, other.slice);
    await state.compact();
    const reopened = await open();
    expect(reopened.isCommitted(id)).toBe(false);
    expect(reopened.isCommitted(other.id)).toBe(true);
  });
});

describe("a commit left midway", () => {
  it("names the files nothing committed accounts for, keeping a batch export's committed partitions", async () => {
    const state = await open();
    const { id, slice } = hour(0);
    await state.commitSlice(id, slice);
    // A redo of the slice: two partitions about to be renamed, one of them committed, then killed.
    const part = { sink: 0, path: `${id}-pA-0001.ndjson`, rows: 5, bytes: 50, sha256: "b".repeat(64) };
    const orphan = { sink: 0, path: `${id}-pB-0001.ndjson` };
    await state.recordIntent(id, [{ sink: 0, path: part.path }]);
    await state.commitPart(id, "A", { read: 5, expected: 5, duplicates: 0, files: [part] });
    await state.recordIntent(id, [orphan]);

    const resumed = await open();
    expect(resumed.isCommitted(id)).toBe(false);
    expect(filesOfInterruptedCommit(resumed.state, id)).toEqual([
      orphan,
      { sink: 0, path: slice.files[0]?.path },
    ]);
    await resumed.forgetInterrupted(id);
    const after = await open();
    expect(after.state.pending[id]).toBeUndefined();
    expect(after.state.slices[id]).toBeUndefined();
    expect(Object.keys(after.batchProgress(id)?.parts ?? {})).toEqual(["A"]);
  });
});
