// One contract suite for the sink over every store: empty input, one batch, many, abort midway, errors.
import { readdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RecordBatch, Column, OutputStore, RunInfo, SliceContext } from "../src/core/contracts.js";
import { createSilentLogger } from "../src/logger.js";
import { createSink, rowCounterOf } from "../src/sinks/sink.js";
import { defaultComponents, formatOf } from "../src/components/environment.js";
import { createSinkConfigSchema } from "../src/sinks/sink-config.js";
import type { SinkConfig } from "../src/sinks/sink-config.js";
import { createLocalStore } from "../src/sinks/file/local-store.js";
import { createS3Store } from "../src/sinks/s3/s3-store.js";
import { createStdoutStore } from "../src/sinks/stdout/stdout-store.js";
import { startS3Server } from "./support/s3-server.js";
import type { TestS3Server } from "./support/s3-server.js";
import { hourSliceContext } from "./support/slice-context.js";

const components = defaultComponents();
const sinkSchema = createSinkConfigSchema(components);

const run: RunInfo = {
  pipelineName: "contract",
  runId: "run-contract",
  startedAt: new Date("2026-11-21T06:00:00Z"),
};
const columns: Column[] = [
  { name: "id", type: "string" },
  { name: "n", type: "int64" },
];

function contextFor(signal?: AbortSignal): SliceContext {
  return hourSliceContext(run, new Date("2026-11-21T00:00:00Z"), { signal });
}

function batches(count: number, size: number): RecordBatch[] {
  return Array.from({ length: count }, (_, b) => ({
    kind: "rows",
    rows: Array.from({ length: size }, (_, i) => ({ id: `r${b}-${i}`, n: b * size + i })),
  }));
}

async function* from(list: RecordBatch[], afterEach?: (index: number) => void): AsyncIterable<RecordBatch> {
  for (const [index, batch] of list.entries()) {
    yield batch;
    afterEach?.(index);
  }
}

interface StoreCase {
  name: string;
  open(): Promise<OutputStore>;
  /** Every name present, temporary or not (for stdout: nothing can be listed). */
  leftovers(): Promise<string[]>;
  visibleBeforeCommit: boolean;
}

let s3: TestS3Server;
let dir: string;
let counter = 0;

beforeAll(async () => {
  s3 = await startS3Server();
  dir = await mkdtemp(join(tmpdir(), "mdq-contract-"));
});
afterAll(async () => {
  await s3.stop();
  await rm(dir, { recursive: true, force: true });
});

const cases: StoreCase[] = [
  {
    name: "local directory",
    visibleBeforeCommit: false,
    open: async () => createLocalStore(join(dir, `case-${++counter}`)),
    leftovers: async () => {
      const root = join(dir, `case-${counter}`);
      const names = await readdir(root, { recursive: true }).catch(() => []);
      return names.filter((name) => !name.endsWith("/")).map(String);
    },
  },
  {
    name: "S3 prefix",
    visibleBeforeCommit: false,
    // A bucket per case, so "no open multipart upload" is asked of that case alone.
    open: async () => {
      s3.createBucket(`contract-${++counter}`);
      return createS3Store(
        `s3://contract-${counter}/prefix`,
        s3.options({ part_size_bytes: 5 * 1024 * 1024 }),
        {
          run,
        },
      );
    },
    leftovers: async () => {
      const store = createS3Store(`s3://contract-${counter}/prefix`, s3.options(), { run });
      const objects = (await store.list()).map((object) => object.path);
      await store.close();
      if (objects.length > 0) return objects;
      return (await s3.hasOpenUploads(`contract-${counter}`)) ? ["(open multipart upload)"] : [];
    },
  },
  {
    name: "stdout",
    visibleBeforeCommit: true,
    open: async () => createStdoutStore(new PassThrough().resume()),
    leftovers: async () => [],
  },
];

for (const format of ["ndjson", "parquet"] as const) {
  for (const store of cases) {
    if (store.name === "stdout" && format === "parquet") continue;
    describe(`sink contract: ${format} to ${store.name}`, () => {
      const config: SinkConfig = sinkSchema.parse({
        format,
        to: store.name === "stdout" ? "-" : "./unused",
        path: "{slice}-{seq}.{ext}",
        max_rows_per_file: 2500,
      });

      it("writes nothing for empty input", async () => {
        const output = await createSink(config, {
          format: formatOf(components, config),
          store: await store.open(),
          columns,
          run,
          log: createSilentLogger(),
        })(from([]), contextFor());
        expect(output.files).toEqual([]);
        await output.commit();
        expect(await store.leftovers()).toEqual([]);
      });

      it("stages one batch as one file and commits it", async () => {
        const opened = await store.open();
        const output = await createSink(config, {
          format: formatOf(components, config),
          store: opened,
          columns,
          run,
          log: createSilentLogger(),
        })(from(batches(1, 100)), contextFor());
        expect(output.rows).toBe(100);
        expect(output.files.map((file) => file.path)).toEqual([`20261121T000000Z-0000.${format}`]);
        if (!store.visibleBeforeCommit) expect(await opened.list()).toEqual([]);
        await output.commit();
        if (store.visibleBeforeCommit) return;
        expect(await store.leftovers()).toEqual([`20261121T000000Z-0000.${format}`]);
        const read = await rowCounterOf(
          config,
          formatOf(components, config),
        )(await opened.openRead(`20261121T000000Z-0000.${format}`));
        expect(read).toBe(100);
      });

      it("rolls many batches into files of max_rows_per_file", async () => {
        const opened = await store.open();
        const output = await createSink(config, {
          format: formatOf(components, config),
          store: opened,
          columns,
          run,
          log: createSilentLogger(),
        })(from(batches(7, 1000)), contextFor());
        expect(output.files.map((file) => file.rows)).toEqual([2500, 2500, 2000]);
        await output.commit();
        if (store.visibleBeforeCommit) return;
        expect((await opened.list()).map((object) => object.path)).toEqual(
          [0, 1, 2].map((seq) => `20261121T000000Z-000${seq}.${format}`),
        );
      });

      it("discards everything staged when the slice is aborted midway", async () => {
        const controller = new AbortController();
        const sink = createSink(config, {
          format: formatOf(components, config),
          store: await store.open(),
          columns,
          run,
          log: createSilentLogger(),
        });
        const running = sink(
          from(batches(6, 1000), (index) => {
            if (index === 3) controller.abort(new Error("stop requested"));
          }),
          contextFor(controller.signal),
        );
        await expect(running).rejects.toThrow("stop requested");
        expect(await store.leftovers()).toEqual([]);
      });

      it("propagates a source error after discarding", async () => {
        async function* failing(): AsyncIterable<RecordBatch> {
          yield* batches(3, 1000);
          throw new Error("page 4 failed");
        }
        const sink = createSink(config, {
          format: formatOf(components, config),
          store: await store.open(),
          columns,
          run,
          log: createSilentLogger(),
        });
        await expect(sink(failing(), contextFor())).rejects.toThrow("page 4 failed");
        expect(await store.leftovers()).toEqual([]);
      });

      it("leaves nothing after discard of a finished slice", async () => {
        const output = await createSink(config, {
          format: formatOf(components, config),
          store: await store.open(),
          columns,
          run,
          log: createSilentLogger(),
        })(from(batches(3, 1000)), contextFor());
        expect(output.files).toHaveLength(2);
        await output.discard();
        expect(await store.leftovers()).toEqual([]);
      });
    });
  }
}
