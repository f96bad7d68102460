// S3 sinks against a real S3-compatible server (fauxqs in-process): equality with disk, multipart, abort, errors.
import { randomBytes } from "node:crypto";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { GetObjectCommand, HeadObjectCommand } from "@aws-sdk/client-s3";
import { DuckDBInstance } from "@duckdb/node-api";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { RecordBatch, Column, Row, RunInfo, SliceContext } from "../src/core/contracts.js";
import { SinkError } from "../src/errors.js";
import { createSilentLogger } from "../src/logger.js";
import { createSink } from "../src/sinks/sink.js";
import { defaultComponents, formatOf } from "../src/components/environment.js";
import { createSinkConfigSchema } from "../src/sinks/sink-config.js";
import { openOutputStore } from "../src/sinks/open-output-store.js";
import { createS3Destination } from "../src/sinks/s3/s3-destination.js";
import { createS3Store } from "../src/sinks/s3/s3-store.js";
import { startS3Server } from "./support/s3-server.js";
import type { TestS3Server } from "./support/s3-server.js";
import { hourSliceContext } from "./support/slice-context.js";

const components = defaultComponents();
const sinkSchema = createSinkConfigSchema(components);

const MiB = 1024 * 1024;
const run: RunInfo = { pipelineName: "s3", runId: "run-s3", startedAt: new Date("2026-11-21T06:00:00Z") };
const columns: Column[] = [
  { name: "id", type: "string" },
  { name: "domain", type: "string" },
  { name: "value", type: "double" },
  { name: "at", type: "timestamp" },
];
const rows: Row[] = Array.from({ length: 6000 }, (_, i) => ({
  id: `id-${i} "quoted"\nünï`,
  domain: ["a", "b", null][i % 3],
  value: i % 9 === 0 ? null : i * 1.25,
  at: new Date(Date.UTC(2026, 10, 21, 0, 0, i % 3600)).toISOString(),
}));

function context(signal?: AbortSignal): SliceContext {
  return hourSliceContext(run, new Date("2026-11-21T00:00:00Z"), { signal });
}

async function* from(list: readonly (readonly Row[])[]): AsyncIterable<RecordBatch> {
  for (const rows of list) yield { kind: "rows", rows };
}

let s3: TestS3Server;
let dir: string;
beforeAll(async () => {
  s3 = await startS3Server();
  s3.createBucket("exports");
  dir = await mkdtemp(join(tmpdir(), "mdq-s3-"));
});
afterAll(async () => {
  await s3.stop();
  await rm(dir, { recursive: true, force: true });
});

async function download(key: string): Promise<Buffer> {
  const response = await s3.client.send(new GetObjectCommand({ Bucket: "exports", Key: key }));
  return Buffer.from(
    await (response.Body as { transformToByteArray(): Promise<Uint8Array> }).transformToByteArray(),
  );
}

/** Exports `rows` to `to`; an S3 target gets the test server's options unless `destinations` brings its own client. */
async function exportTo(to: string, yaml: Record<string, unknown>, destinations = components.destinations) {
  const ownClient = destinations !== components.destinations;
  const s3Options = to.startsWith("s3://") && !ownClient ? { s3: s3.options() } : {};
  const config = sinkSchema.parse({ to, ...yaml, ...s3Options });
  const store = await openOutputStore(config, { run }, destinations);
  const output = await createSink(config, {
    format: formatOf(components, config),
    store,
    columns,
    run,
    log: createSilentLogger(),
  })(from([rows.slice(0, 2500), rows.slice(2500)]), context());
  await output.commit();
  await store.close();
  return output;
}

describe("sink to S3", () => {
  const variants: [string, Record<string, unknown>][] = [
    ["ndjson", { format: "ndjson" }],
    ["gzip ndjson", { format: "ndjson", gzip: true }],
    ["parquet", { format: "parquet", row_group_rows: 1000 }],
  ];
  for (const [label, yaml] of variants) {
    it(`writes ${label} objects equal, byte for byte, to the same export on disk`, async () => {
      const partitioned = { ...yaml, path: "domain={domain}/{slice}-{seq}.{ext}", max_rows_per_file: 1500 };
      const onDisk = await exportTo(join(dir, label), partitioned);
      const onS3 = await exportTo(`s3://exports/${label.replace(" ", "-")}/prefix`, partitioned);
      expect(onS3.files.map((file) => [file.path, file.rows, file.sha256])).toEqual(
        onDisk.files.map((file) => [file.path, file.rows, file.sha256]),
      );
      for (const file of onDisk.files) {
        const remote = await download(`${label.replace(" ", "-")}/prefix/${file.path}`);
        expect(remote.equals(await readFile(join(dir, label, file.path))), file.path).toBe(true);
      }
    });
  }

  it("writes Parquet that DuckDB reads after download through the S3 API", async () => {
    const output = await exportTo("s3://exports/duck", { format: "parquet" });
    const [file] = output.files;
    const local = join(dir, "downloaded.parquet");
    await writeFile(local, await download(`duck/${file?.path ?? ""}`));
    const instance = await DuckDBInstance.create(":memory:");
    const connection = await instance.connect();
    const result = await connection.runAndReadAll(
      `select id, domain, value, strftime("at", '%Y-%m-%dT%H:%M:%S.000Z') as at from read_parquet('${local}')`,
    );
    expect(result.getRowObjectsJS()).toEqual(rows);
    connection.closeSync();
    instance.closeSync();
  });

  it("writes through the client an environment brings (createS3Destination), with no s3: options", async () => {
    const destinations = { ...components.destinations, s3: createS3Destination({ client: s3.client }) };
    const output = await exportTo("s3://exports/own-client", { format: "ndjson" }, destinations);
    const [file] = output.files;
    const remote = await download(`own-client/${file?.path ?? ""}`);
    expect(remote.toString("utf8").trimEnd().split("\n")).toHaveLength(rows.length);
  });

  it("tags and labels objects with the run id", async () => {
    await exportTo("s3://exports/meta", { format: "ndjson" });
    const head = await s3.client.send(
      new HeadObjectCommand({ Bucket: "exports", Key: "meta/20261121T000000Z-0000.ndjson" }),
    );
    expect(head.Metadata?.["mdq-run-id"]).toBe("run-s3");
    expect(head.ContentType).toBe("application/x-ndjson");
  });
});

describe("S3 store small objects", () => {
  it("writes an empty _SUCCESS, an empty file and a manifest without the SDK warning on stderr", async () => {
    s3.createBucket("small");
    const opened = createS3Store("s3://small/out", s3.options(), { run });
    const warn = vi.spyOn(console, "warn");
    try {
      await opened.putObject("_SUCCESS", "");
      await opened.putObject("_manifest.json", "{}");
      const writer = await opened.stage("empty.ndjson", new AbortController().signal, "application/x-ndjson");
      await writer.finish();
      await writer.commit();
      expect(warn).not.toHaveBeenCalled();
    } finally {
      warn.mockRestore();
    }
    const heads = await Promise.all(
      ["_SUCCESS", "_manifest.json", "empty.ndjson"].map((name) =>
        s3.client.send(new HeadObjectCommand({ Bucket: "small", Key: `out/${name}` })),
      ),
    );
    expect(heads.map((head) => [head.ContentLength, head.ContentType])).toEqual([
      [0, "application/octet-stream"],
      [2, "application/json"],
      [0, "application/x-ndjson"],
    ]);
    await opened.close();
  });
});

describe("S3 store multipart uploads", () => {
  const store = (bucket: string) => {
    s3.createBucket(bucket);
    return createS3Store(
      `s3://${bucket}/multipart`,
      s3.options({ part_size_bytes: 5 * MiB, queue_size: 2 }),
      { run },
    );
  };

  it("round-trips a file of more than two parts byte for byte, invisible until commit", async () => {
    const body = randomBytes(16 * MiB + 12345);
    const opened = store("round-trip");
    const writer = await opened.stage("big.bin", new AbortController().signal);
    for (let offset = 0; offset < body.length; offset += 700_000)
      await writer.write(body.subarray(offset, offset + 700_000));
    const written = await writer.finish();
    expect(written.bytes).toBe(body.length);
    expect(await opened.list()).toEqual([]);
    expect(await s3.hasOpenUploads("round-trip")).toBe(true);
    await writer.commit();
    const response = await s3.client.send(
      new GetObjectCommand({ Bucket: "round-trip", Key: "multipart/big.bin" }),
    );
    const downloaded = Buffer.from(
      await (response.Body as { transformToByteArray(): Promise<Uint8Array> }).transformToByteArray(),
    );
    expect(downloaded.equals(body)).toBe(true);
    await opened.close();
  });

  it("leaves no object and no open upload when aborted after parts went up", async () => {
    const opened = store("aborted");
    const controller = new AbortController();
    const writer = await opened.stage("aborted.bin", controller.signal);
    // Three parts with two in flight: the third waits for a finished part, so the upload exists.
    await writer.write(randomBytes(16 * MiB));
    expect(await s3.hasOpenUploads("aborted")).toBe(true);
    controller.abort(new Error("SIGTERM"));
    await expect(writer.write(randomBytes(10))).rejects.toThrow("SIGTERM");
    await writer.abort();
    expect(await opened.getObject("aborted.bin")).toBeUndefined();
    expect(await s3.hasOpenUploads("aborted")).toBe(false);
    await opened.close();
  });

  it("names bucket and key when the bucket does not exist", async () => {
    const missing = createS3Store("s3://no-such-bucket/p", s3.options(), { run });
    const writer = await missing.stage("f.ndjson", new AbortController().signal);
    await writer.write(new Uint8Array([1, 2, 3]));
    const error: unknown = await writer.finish().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SinkError);
    expect((error as SinkError).code).toBe("S3_NO_SUCH_BUCKET");
    expect((error as SinkError).message).toContain("s3://no-such-bucket/p/f.ndjson");
    expect((error as SinkError).message).toContain('bucket "no-such-bucket" does not exist');
    await writer.abort();
    await expect(missing.putObject("_SUCCESS", "")).rejects.toThrow(/no-such-bucket\/p\/_SUCCESS/);
    await missing.close();
  });

  it("says when the endpoint cannot be reached", async () => {
    const unreachable = createS3Store("s3://exports/p", s3.options({ endpoint: "http://127.0.0.1:9" }), {
      run,
    });
    const error: unknown = await unreachable.putObject("x", "y").catch((caught: unknown) => caught);
    expect((error as SinkError).code).toBe("S3_UNREACHABLE");
    expect((error as SinkError).message).toContain("http://127.0.0.1:9");
    await unreachable.close();
  });

  it("works with checksum: when_required", async () => {
    const opened = createS3Store(
      "s3://exports/when-required",
      s3.options({ checksum: "when_required", part_size_bytes: 5 * MiB }),
      { run },
    );
    const body = randomBytes(6 * MiB);
    const writer = await opened.stage("f.bin", new AbortController().signal);
    await writer.write(body);
    await writer.finish();
    await writer.commit();
    expect((await download("when-required/f.bin")).equals(body)).toBe(true);
    await opened.close();
  });
});
