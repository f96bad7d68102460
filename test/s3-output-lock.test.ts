// The output lock on S3: a lock object created with `If-None-Match: *`, renewed and taken over with
// `If-Match`. fauxqs does not honour those headers, so the lock runs against it through a proxy that
// adds S3's documented semantics (test/support/conditional-s3-proxy.ts); the first test pins down
// that fauxqs still needs it.
import { GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { hostname } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OutputLockedError } from "../src/errors.js";
import { createSilentLogger } from "../src/logger.js";
import type { OutputStore } from "../src/core/contracts.js";
import { lockObjectPath, lockOutputs } from "../src/pipeline/output-state/output-lock.js";
import { createS3Store } from "../src/sinks/s3/s3-store.js";
import { startConditionalS3Proxy } from "./support/conditional-s3-proxy.js";
import type { ConditionalS3Proxy } from "./support/conditional-s3-proxy.js";
import { spawnCli } from "./support/cli-harness.js";
import { writeJobsPipeline } from "./support/jobs-pipeline.js";
import type { GateProxy } from "./support/gate-proxy.js";
import { startS3Server } from "./support/s3-server.js";
import type { TestS3Server } from "./support/s3-server.js";
import { gateProxyFixture, useEmulator } from "./support/use-emulator.js";

const BUCKET = "locks";
let s3: TestS3Server;
let conditional: ConditionalS3Proxy;
let client: S3Client;

function store(prefix: string, runId: string): OutputStore {
  return createS3Store(`s3://${BUCKET}/${prefix}`, s3.options({ endpoint: conditional.endpoint }), {
    run: { pipelineName: "nightly", runId, startedAt: new Date() },
    client,
  });
}

function lock(
  prefix: string,
  runId: string,
  now: () => number,
  more: { monotonic?: () => number; breakLock?: boolean } = {},
) {
  return lockOutputs({
    ...more,
    stores: [store(prefix, runId)],
    path: lockObjectPath(),
    run: { pipelineName: "nightly", runId, startedAt: new Date() },
    log: createSilentLogger(),
    now,
    space: { host: "host-a" },
    pid: 4242,
  });
}

async function lockObject(prefix: string): Promise<Record<string, unknown> | undefined> {
  try {
    const response = await s3.client.send(
      new GetObjectCommand({ Bucket: BUCKET, Key: `${prefix}/${lockObjectPath()}` }),
    );
    return JSON.parse((await response.Body?.transformToString()) ?? "") as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

beforeAll(async () => {
  s3 = await startS3Server();
  s3.createBucket(BUCKET);
  conditional = await startConditionalS3Proxy(s3.endpoint);
  client = new S3Client({ region: "us-east-1", endpoint: conditional.endpoint, forcePathStyle: true });
});

afterAll(async () => {
  client?.destroy();
  await conditional?.close();
  await s3?.stop();
});

describe("the S3 output lock", () => {
  it("needs the proxy: fauxqs 1.9.2 overwrites an object despite If-None-Match: *", async () => {
    const put = () =>
      s3.client.send(new PutObjectCommand({ Bucket: BUCKET, Key: "plain/x", Body: "x", IfNoneMatch: "*" }));
    await put();
    await expect(put()).resolves.toBeDefined();
    await expect(
      client.send(new PutObjectCommand({ Bucket: BUCKET, Key: "plain/x", Body: "x", IfNoneMatch: "*" })),
    ).rejects.toMatchObject({ $metadata: { httpStatusCode: 412 } });
  });

  it("refuses a second run while the lease lives, naming the holder; takes over an expired lease", async () => {
    let clock = Date.parse("2026-11-23T02:00:00Z");
    const now = () => clock;
    const first = await lock("nightly", "run-a", now);
    expect(await lockObject("nightly")).toMatchObject({ run_id: "run-a", host: "host-a", pid: 4242 });

    const refused = lock("nightly", "run-b", now);
    await expect(refused).rejects.toBeInstanceOf(OutputLockedError);
    await expect(refused).rejects.toThrow(
      /locked by run run-a \(pid 4242 on host-a, since 2026-11-23T02:00:00.000Z, lease until 2026-11-23T02:02:00.000Z\)/,
    );

    // The holder renews: the lease moves on, and a run just after the first lease still waits.
    clock += 60_000;
    expect(await first.renew()).toBe(true);
    clock += 61_000;
    await expect(lock("nightly", "run-b", now)).rejects.toBeInstanceOf(OutputLockedError);

    // The holder stops renewing (a host gone): past its lease, the next run takes over.
    clock += 120_001;
    const second = await lock("nightly", "run-b", now);
    expect(await lockObject("nightly")).toMatchObject({ run_id: "run-b" });
    // The first run learns it lost the lock and, releasing, leaves the new holder's lock alone.
    expect(await first.renew()).toBe(false);
    await first.release();
    expect(await lockObject("nightly")).toMatchObject({ run_id: "run-b" });
    await second.release();
    expect(await lockObject("nightly")).toBeUndefined();
  });

  it("refuses a lock object that cannot be trusted, naming it and --break-lock, which replaces it by If-Match", async () => {
    const now = () => Date.parse("2026-11-23T04:00:00Z");
    for (const [prefix, body] of [
      ["soon", JSON.stringify({ run_id: "r-x", pid: 7, host: "host-b", since: "", lease_until: "soon" })],
      [
        "future",
        JSON.stringify({
          run_id: "r-y",
          pid: 7,
          host: "host-b",
          since: "",
          lease_until: "2027-01-01T00:00:00Z",
        }),
      ],
    ] as const) {
      await s3.client.send(
        new PutObjectCommand({ Bucket: BUCKET, Key: `${prefix}/${lockObjectPath()}`, Body: body }),
      );
      const refused = lock(prefix, "run-c", now);
      await expect(refused).rejects.toMatchObject({ code: "OUTPUT_LOCK_INVALID" });
      await expect(refused).rejects.toThrow(`the lock s3://${BUCKET}/${prefix}/${lockObjectPath()}`);
      await expect(refused).rejects.toThrow("--break-lock");
      const broken = await lock(prefix, "run-c", now, { breakLock: true });
      expect(await lockObject(prefix)).toMatchObject({ run_id: "run-c", lease_ms: 120_000 });
      await broken.release();
      expect(await lockObject(prefix)).toBeUndefined();
    }
  });

  it("fences on the monotonic clock: renews past half the lease, stops the run past the whole", async () => {
    let wall = Date.parse("2026-11-23T05:00:00Z");
    let monotonic = 0;
    const held = await lock("fenced", "run-d", () => wall, { monotonic: () => monotonic });
    monotonic += 70_000;
    wall += 70_000;
    await held.fence();
    expect(await lockObject("fenced")).toMatchObject({ lease_until: "2026-11-23T05:03:10.000Z" });
    monotonic += 120_000;
    await expect(held.fence()).rejects.toMatchObject({ code: "OUTPUT_LOCK_LOST" });
    expect(held.lost.aborted).toBe(true);
    expect(await lockObject("fenced")).toMatchObject({ lease_until: "2026-11-23T05:03:10.000Z" });
    await held.release();
  });

  it("lets one of many racing runs win", async () => {
    const now = () => Date.parse("2026-11-23T03:00:00Z");
    const attempts = await Promise.allSettled(
      Array.from({ length: 6 }, (_, index) => lock("race", `run-${index}`, now)),
    );
    const won = attempts.filter((attempt) => attempt.status === "fulfilled");
    expect(won).toHaveLength(1);
    for (const attempt of attempts)
      if (attempt.status === "rejected") expect(attempt.reason).toBeInstanceOf(OutputLockedError);
  });
});

describe("two CLI processes on one S3 output", () => {
  const it = useEmulator({ seed: 6, density: 20 }, { preset: false }).extend<{ gateProxy: GateProxy }>({
    gateProxy: gateProxyFixture(),
  });

  it("stops the second with exit 75 and the holder's name; the first completes", async ({
    service,
    workspace,
    gateProxy,
  }) => {
    const pipeline = await writeJobsPipeline(workspace.dir, {
      name: "nightly",
      hours: 2,
      to: `s3://${BUCKET}/cli`,
      sink: { s3: { endpoint: conditional.endpoint, region: "us-east-1", force_path_style: true } },
    });
    const env = {
      ...service.env,
      MDQ_BASE_URL: gateProxy.url,
      MDQ_AUTH_URL: gateProxy.url,
      AWS_ACCESS_KEY_ID: "test",
      AWS_SECRET_ACCESS_KEY: "test",
    };
    const key = `cli/${lockObjectPath()}`;
    const exists = () =>
      s3.client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: key })).then(
        () => true,
        () => false,
      );
    const gate = gateProxy.holdWhen(exists);
    const first = spawnCli(["run", join(pipeline)], env);
    await gate.reached;
    const holder = await lockObject("cli");
    expect(holder).toMatchObject({ pid: first.child.pid, host: hostname() });

    const second = spawnCli(["run", pipeline, "--force"], env);
    expect(await second.exited, second.stderr()).toBe(75);
    expect(second.stderr()).toContain(
      `locked by run ${String(holder?.run_id)} (pid ${first.child.pid} on ${hostname()}`,
    );

    gate.release();
    expect(await first.exited, first.stderr()).toBe(0);
    expect(await exists()).toBe(false);
  }, 60_000);
});
