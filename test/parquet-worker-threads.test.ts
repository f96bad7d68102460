// Parquet row groups encoded in worker threads (`limits.encode_threads`): the compiled encoder with a
// real thread pool, and the built CLI (`npm test` builds first). Rows read back by DuckDB must be those
// encoded in the thread; a SIGTERM while row groups are in the workers still exits 75 with nothing
// half-written, and the rerun is exact.
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { parquetMetadata, parquetReadObjects } from "hyparquet";
import { describe, expect } from "vitest";
import type { RecordBatch, Column } from "../src/core/contracts.js";
import {
  REPO_ROOT,
  SERVICE_FROM_ENV,
  dataFiles,
  listTree,
  readJson,
  runCli,
  spawnCli,
  temporaryFiles,
  waitFor,
  writePipeline,
} from "./support/cli-harness.js";
import type { Row, Workspace } from "./support/cli-harness.js";
import { jobsPitSource } from "./support/jobs-pipeline.js";
import { readParquet } from "./support/read-output.js";
import { readRunState } from "./support/run-state.js";
import { expectedRowsFixture, useEmulator } from "./support/use-emulator.js";

import type * as ParquetModule from "../src/formats/parquet.js";
import type * as PoolModule from "../src/core/worker-pool.js";
import type * as SourceSpecModule from "../src/kinds/source-spec.js";

/** The compiled module: only compiled code can start a worker thread here. */
async function compiled<Module>(path: string): Promise<Module> {
  return (await import(pathToFileURL(join(REPO_ROOT, "dist", path)).href)) as Module;
}

const START = "2026-11-20T00:00:00Z";
const END = "2026-11-20T04:00:00Z";
const SLICES = 4;

// About 2,400 jobs per one-hour slice: several row groups of 500 rows per file.
const it = useEmulator({ seed: 11, density: 400 }, { preset: false }).extend<{ expected: Map<string, Row> }>({
  expected: expectedRowsFixture("/v3/jobs/query", [
    { application: "atr", app_type: ["ec2", "kubernetes"], domain: ["*"], start_time: START, end_time: END },
  ]),
});

async function setUp(
  workspace: Workspace,
  name: string,
  encodeThreads: number,
): Promise<{ file: string; out: string }> {
  const dir = await workspace.folder(`parquet-threads-${name}`);
  const out = join(dir, "out");
  const file = await writePipeline(dir, {
    name: `parquet-threads-${name}`,
    service: SERVICE_FROM_ENV,
    source: jobsPitSource(START, END, 700),
    sinks: [{ format: "parquet", row_group_rows: 1000, to: out, path: "part-{slice}-{seq}.{ext}" }],
    limits: { concurrency: 2, encode_threads: encodeThreads },
  });
  return { file, out };
}

async function rowGroups(out: string): Promise<number[]> {
  const counts: number[] = [];
  for (const path of dataFiles(await listTree(out))) {
    const bytes = await readFile(join(out, path));
    const metadata = parquetMetadata(arrayBufferOf(bytes));
    counts.push(metadata.row_groups.length);
  }
  return counts;
}

const arrayBufferOf = (bytes: Buffer): ArrayBuffer => new Uint8Array(bytes).buffer.slice(0) as ArrayBuffer;

const byId = (rows: Row[]): Row[] => [...rows].sort((a, b) => String(a._id).localeCompare(String(b._id)));

describe("the compiled encoder with a pool of worker threads", () => {
  it("sends each row group of spliced rows to a worker and writes the rows the thread writes", async () => {
    const { parquetFormat } = await compiled<typeof ParquetModule>("formats/parquet.js");
    const { createWorkerPool } = await compiled<typeof PoolModule>("core/worker-pool.js");
    const { hitsToRows } = await compiled<typeof SourceSpecModule>("kinds/source-spec.js");
    const columns: Column[] = [
      { name: "_id", type: "string" },
      { name: "n", type: "int64" },
      { name: "job.state", type: "string" },
    ];
    // Batches as a source makes them: each row's JSON spliced from the service's `_source` bytes.
    const batches: RecordBatch[] = Array.from({ length: 5 }, (_, b) => {
      const hits = Array.from({ length: 900 }, (_, i) => {
        const n = b * 900 + i;
        return {
          _id: `j${String(n).padStart(5, "0")}`,
          _index: "jobs",
          _source: { n, job: { state: `s${n % 4}` } },
        };
      });
      return hitsToRows(
        hits,
        hits.map((hit) => Buffer.from(JSON.stringify(hit._source))),
      );
    });
    const pool = createWorkerPool(2);
    let sent = 0;
    const counting = {
      ...pool,
      runner: <Task, Result>(worker: URL, name: string) => {
        const run = pool.runner<Task, Result>(worker, name);
        return run && ((task: Task, transfer?: ArrayBuffer[]) => ((sent += 1), run(task, transfer)));
      },
    };
    const encode = async (context: Parameters<typeof parquetFormat.createEncoder>[2]): Promise<Buffer> => {
      const encoder = parquetFormat.createEncoder(columns, { rowGroupRows: 1000 }, context);
      const chunks: Uint8Array[] = [];
      for (const batch of batches) chunks.push(...(await encoder.encode(batch)));
      chunks.push(...(await encoder.finish()));
      return Buffer.concat(chunks);
    };
    try {
      const threaded = await encode({ workers: counting });
      const inThread = await encode({});
      expect(sent).toBe(5);
      const read = async (bytes: Buffer) => parquetReadObjects({ file: arrayBufferOf(bytes) });
      const rows = await read(threaded);
      expect(rows).toEqual(await read(inThread));
      expect(rows.map((row) => row._id)).toEqual(
        batches.flatMap((batch) => batch.rows).map((row) => row._id),
      );
    } finally {
      await pool.close();
    }
  });
});

describe("a run with encode_threads", () => {
  it("writes the same rows and row groups as a run that encodes in the thread, and verify passes", async ({
    service,
    workspace,
    expected,
  }) => {
    const inThread = await setUp(workspace, "zero", 0);
    const threaded = await setUp(workspace, "two", 2);
    const logs: string[] = [];
    for (const { file } of [inThread, threaded]) {
      const result = await runCli(["run", file, "--log-level", "debug"], { env: service.env });
      expect(result.code, result.stderr).toBe(0);
      logs.push(result.stderr);
    }
    expect(logs[0]).not.toMatch(/encoded in worker threads/);
    expect(logs[1]).toMatch(/"threads":2.*encoded in worker threads/);
    const [a, b] = await Promise.all(
      [inThread, threaded].map(async ({ out }) => readParquet(out, dataFiles(await listTree(out)))),
    );
    expect(b?.rows).toHaveLength(expected.size);
    expect(byId(b?.rows ?? [])).toEqual(byId(a?.rows ?? []));
    expect(b?.types).toEqual(a?.types);
    const groups = await rowGroups(threaded.out);
    expect(groups).toEqual(await rowGroups(inThread.out));
    expect(Math.max(...groups)).toBeGreaterThan(1);
    const verify = await runCli(["verify", threaded.file], { env: service.env });
    expect(verify.code, verify.stderr).toBe(0);
  });

  it("on SIGTERM exits 75 with nothing half-written; the rerun resumes and is exact", async ({
    service,
    workspace,
    expected,
  }) => {
    const { file, out } = await setUp(workspace, "term", 2);
    service.emulator.setFaults({ latencyMs: 40 });
    try {
      const cli = spawnCli(["run", file], service.env);
      await waitFor(async () => {
        const state = await readRunState(out);
        const committed = Object.keys((state?.slices as object | undefined) ?? {}).length;
        return committed >= 1 && temporaryFiles(await listTree(out)).length > 0;
      }, "a committed slice and one being written");
      cli.child.kill("SIGTERM");
      expect(await cli.exited).toBe(75);
    } finally {
      service.emulator.setFaults({});
    }
    expect(temporaryFiles(await listTree(out))).toEqual([]);
    const result = await runCli(["run", file], { env: service.env });
    expect(result.code, result.stderr).toBe(0);
    const tree = await listTree(out);
    const table = await readParquet(out, dataFiles(tree));
    const ids = table.rows.map((row) => row._id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(ids)).toEqual(new Set(expected.keys()));
    const state = await readJson(join(out, "_mdq-export/state.json"));
    const files = Object.values(
      state.slices as Record<string, { files: { path: string; sha256: string }[] }>,
    );
    expect(files).toHaveLength(SLICES);
    for (const { path, sha256 } of files.flatMap((slice) => slice.files)) {
      const bytes = await readFile(join(out, path));
      expect(createHash("sha256").update(bytes).digest("hex"), path).toBe(sha256);
    }
  });
});
