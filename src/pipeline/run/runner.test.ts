import { mkdtemp, readFile, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PagingContextLostError, QuotaExhaustedError } from "../../errors.js";
import { createSilentLogger } from "../../logger.js";
import { createLocalStore } from "../../sinks/file/local-store.js";
import { defaultComponents, formatOf } from "../../components/environment.js";
import { createSinkConfigSchema } from "../../sinks/sink-config.js";
import { createSink } from "../../sinks/sink.js";
import type {
  RecordBatch,
  OutputStore,
  PartitionedSource,
  RunInfo,
  Slice,
  Source,
} from "../../core/contracts.js";
import { runSlices } from "./runner.js";
import type { SliceTask } from "./runner.js";
import { StateStore } from "../output-state/state.js";

const components = defaultComponents();
const sinkSchema = createSinkConfigSchema(components);

const run: RunInfo = { pipelineName: "test", runId: "test-run", startedAt: new Date("2026-11-22T00:00:00Z") };
const log = createSilentLogger();
const columns = [
  { name: "_id", type: "string" as const },
  { name: "n", type: "int64" as const },
];

function slices(count: number): Slice[] {
  return Array.from({ length: count }, (_, index) => {
    const start = new Date(Date.UTC(2026, 10, 21, index));
    return {
      index,
      id: `20261121T${String(index).padStart(2, "0")}0000Z`,
      start,
      end: new Date(start.getTime() + 3_600_000),
    };
  });
}

/** A source of `count` rows in pages of 3 that reports `expected` (the count unless told otherwise). */
function rowsSource(
  slice: Slice,
  count: number,
  options: { expected?: number; failOnce?: Error; repeat?: boolean } = {},
): Source {
  let failed = false;
  return async function* (ctx): AsyncGenerator<RecordBatch> {
    ctx.stats.expected = options.expected ?? count;
    for (let first = 0; first < count; first += 3) {
      if (options.failOnce !== undefined && !failed && first > 0) {
        failed = true;
        throw options.failOnce;
      }
      const page = Array.from({ length: Math.min(3, count - first) }, (_, offset) => ({
        _id: `${slice.id}-${first + offset}`,
        n: first + offset,
      }));
      yield { kind: "rows", rows: page };
      // A retried page arriving twice must not be written twice.
      if (options.repeat === true) yield { kind: "rows", rows: page };
    }
  };
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1))
    .sort();
}

async function readRows(dir: string): Promise<string[]> {
  const ids: string[] = [];
  for (const file of await listFiles(dir)) {
    if (!file.endsWith(".ndjson")) continue;
    for (const line of (await readFile(join(dir, file), "utf8")).split("\n")) {
      if (line !== "") ids.push((JSON.parse(line) as { _id: string })._id);
    }
  }
  return ids.sort();
}

describe("runSlices", () => {
  let dir: string;
  let store: OutputStore;
  const sinkConfig = sinkSchema.parse({ format: "ndjson", to: "unused" });

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "mdq-runner-"));
    store = createLocalStore(dir);
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const openState = (fingerprint = "f1", force = false) =>
    StateStore.open({ store, path: "_mdq-export/state.json", pipeline: "test", fingerprint, force });

  const tasksFor = (sources: (slice: Slice) => Source, count = 3): SliceTask[] =>
    slices(count).map((slice) => ({
      slice,
      build: () => ({
        source: sources(slice),
        transforms: [],
        sinks: [
          createSink(sinkConfig, { format: formatOf(components, sinkConfig), store, columns, run, log }),
        ],
      }),
    }));

  /** Runs the tasks over this test's store; `state` defaults to a freshly opened one. */
  const runOver = async (
    tasks: SliceTask[],
    options: { concurrency: number; maxAttemptsPerSlice: number; state?: StateStore },
  ) =>
    runSlices({
      tasks,
      concurrency: options.concurrency,
      maxAttemptsPerSlice: options.maxAttemptsPerSlice,
      state: options.state ?? (await openState()),
      removeFile: async (file) => {
        if (file.sink === 0) await store.deleteObject(file.path);
      },
      run,
      log,
      signal: new AbortController().signal,
    });

  it("commits every slice, records it, and skips committed slices on the next run", async () => {
    const state = await openState();
    const outcome = await runOver(
      tasksFor((slice) => rowsSource(slice, 7)),
      { concurrency: 2, maxAttemptsPerSlice: 2, state },
    );
    expect(outcome).toMatchObject({ status: "complete", committed: 3, skipped: 0 });
    expect(await readRows(dir)).toHaveLength(21);
    // Read back as a resume reads it: the state object and the journal written after it.
    const saved = (await openState()).state;
    expect(Object.values(saved.slices).map((slice) => slice.read)).toEqual([7, 7, 7]);

    let built = 0;
    const again = await runOver(
      tasksFor((slice) => {
        built++;
        return rowsSource(slice, 7);
      }),
      { concurrency: 2, maxAttemptsPerSlice: 2 },
    );
    expect(again).toMatchObject({ status: "complete", committed: 0, skipped: 3 });
    expect(built).toBe(0);
  });

  it("restarts a slice whose paging context was lost, writing each record once", async () => {
    const outcome = await runOver(
      tasksFor(
        (slice) => rowsSource(slice, 10, { failOnce: new PagingContextLostError("/v3/jobs/query") }),
        1,
      ),
      { concurrency: 1, maxAttemptsPerSlice: 3 },
    );
    // Every attempt builds a fresh source that loses its context: after the last attempt the run stops, resumable.
    expect(outcome.status).toBe("stopped");
    expect(outcome.remaining).toBe(1);

    let attempts = 0;
    const recovering = await runOver(
      slices(1).map((slice) => ({
        slice,
        build: () => {
          attempts++;
          const source =
            attempts === 1
              ? rowsSource(slice, 10, { failOnce: new PagingContextLostError("/v3/jobs/query") })
              : rowsSource(slice, 10);
          return {
            source,
            transforms: [],
            sinks: [
              createSink(sinkConfig, { format: formatOf(components, sinkConfig), store, columns, run, log }),
            ],
          };
        },
      })),
      { concurrency: 1, maxAttemptsPerSlice: 3 },
    );
    expect(recovering.status).toBe("complete");
    expect(attempts).toBe(2);
    const ids = await readRows(dir);
    expect(ids).toHaveLength(10);
    expect(new Set(ids).size).toBe(10);
    expect((await listFiles(dir)).filter((file) => file.includes(".tmp-"))).toEqual([]);
  });

  it("drops repeated records and fails the run when the count never reconciles", async () => {
    const duplicated = await runOver(
      tasksFor((slice) => rowsSource(slice, 6, { repeat: true }), 1),
      { concurrency: 1, maxAttemptsPerSlice: 1 },
    );
    expect(duplicated.status).toBe("complete");
    expect(await readRows(dir)).toHaveLength(6);

    await rm(join(dir, "_mdq-export"), { recursive: true });
    const mismatch = await runOver(
      tasksFor((slice) => rowsSource(slice, 6, { expected: 7 }), 1),
      { concurrency: 1, maxAttemptsPerSlice: 2, state: await openState("f1", true) },
    );
    expect(mismatch.status).toBe("failed");
    expect(String(mismatch.error)).toContain("20261121T000000Z");
  });

  it("stops cleanly when the quota is exhausted, leaving nothing half-written", async () => {
    const outcome = await runOver(
      tasksFor((slice) =>
        slice.index === 1
          ? async function* () {
              yield { kind: "rows", rows: [{ _id: "x", n: 1 }] };
              throw new QuotaExhaustedError("quota reserve reached", 10, 10);
            }
          : rowsSource(slice, 4),
      ),
      { concurrency: 1, maxAttemptsPerSlice: 3 },
    );
    expect(outcome.status).toBe("stopped");
    expect(outcome.error).toBeInstanceOf(QuotaExhaustedError);
    expect(outcome.committed).toBe(1);
    const files = await listFiles(dir);
    expect(files.filter((file) => file.includes(".tmp-"))).toEqual([]);
    expect(files.filter((file) => file.endsWith(".ndjson"))).toHaveLength(1);
  });

  it("removes the files a redone slice no longer writes", async () => {
    const rolled = sinkSchema.parse({ format: "ndjson", to: "unused", max_rows_per_file: 3 });
    const withSink = (config: typeof sinkConfig): SliceTask[] =>
      slices(1).map((slice) => ({
        slice,
        build: () => ({
          source: rowsSource(slice, 7),
          transforms: [],
          sinks: [createSink(config, { format: formatOf(components, config), store, columns, run, log })],
        }),
      }));
    await runOver(withSink(rolled), { concurrency: 1, maxAttemptsPerSlice: 1 });
    expect((await listFiles(dir)).filter((file) => file.endsWith(".ndjson"))).toHaveLength(3);

    const redone = await runOver(withSink(sinkConfig), {
      concurrency: 1,
      maxAttemptsPerSlice: 1,
      state: await openState("f1", true),
    });
    expect(redone.status).toBe("complete");
    expect((await listFiles(dir)).filter((file) => file.endsWith(".ndjson"))).toHaveLength(1);
    expect(await readRows(dir)).toHaveLength(7);
  });

  it("refuses to mix output of a changed pipeline unless forced", async () => {
    const state = await openState("before");
    await state.commitSlice("a", {
      start: "s",
      end: "e",
      committed_at: "c",
      read: 0,
      expected: 0,
      duplicates: 0,
      files: [],
    });
    await expect(openState("after")).rejects.toThrow(/pipeline changed/);
    await expect(openState("after", true)).resolves.toBeInstanceOf(StateStore);
  });
  it("writes a record once across overlapping batch partitions, also when a partition is redone after a failure", async () => {
    // Partitions overlap on "b" and "c"; the second fails once after the first is committed, so the
    // retry must reload the first one's ids to keep dropping its records.
    const files: Record<string, string[]> = { p1: ["a", "b", "c"], p2: ["b", "c", "d"], p3: ["e", "a"] };
    let failures = 0;
    const partitioned: PartitionedSource = {
      parts: async () =>
        Object.entries(files).map(([id, ids]) => ({
          id,
          expected: ids.length,
          source: async function* (ctx): AsyncGenerator<RecordBatch> {
            ctx.stats.expected = ids.length;
            if (id === "p2" && failures++ === 0) throw new PagingContextLostError("partition download");
            yield { kind: "rows", rows: ids.map((rowId, n) => ({ _id: rowId, n })) };
          },
        })),
    };
    const state = await openState();
    const outcome = await runOver(
      slices(1).map((slice) => ({
        slice,
        build: () => ({
          source: partitioned,
          transforms: [],
          sinks: [
            createSink(sinkConfig, { format: formatOf(components, sinkConfig), store, columns, run, log }),
          ],
        }),
      })),
      { concurrency: 1, maxAttemptsPerSlice: 2, state },
    );
    expect(outcome.status).toBe("complete");
    expect(failures).toBe(2);
    expect(await readRows(dir)).toEqual(["a", "b", "c", "d", "e"]);
    const committed = Object.values(state.state.slices)[0];
    expect(committed?.read).toBe(5);
    expect(committed?.duplicates).toBe(3);
    const rowsInFiles = committed?.files.reduce((sum, file) => sum + file.rows, 0);
    expect(rowsInFiles).toBe(5);
  });
});
