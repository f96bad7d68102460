// One contract suite over every record source (v2 scroll, v3 point in time, v3 metrics scroll, batch
// export, and the deprecated v1 scroll) against the emulator: empty input, one page, many pages, an
// abort midway, and an error that must reach the caller.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServiceClient } from "../src/api/client.js";
import type { ServiceClient } from "../src/api/client.js";
import { startEmulator } from "../src/emulator/server.js";
import type { RunningEmulator } from "../src/emulator/server.js";
import { createSilentLogger } from "../src/logger.js";
import { isPartitionedSource } from "../src/pipeline/contracts.js";
import type { Batch, PartitionedSource, SliceContext, Source } from "../src/pipeline/contracts.js";
import { createBatchSource } from "../src/sources/batch.js";
import { createPointInTimeSource } from "../src/sources/point-in-time.js";
import { createScrollSource } from "../src/sources/scroll.js";
import type { SourceQuery } from "../src/sources/source-query.js";

const slice = {
  index: 0,
  id: "20261120T000000Z",
  start: new Date("2026-11-20T00:00:00Z"),
  end: new Date("2026-11-20T02:00:00Z"),
};

interface Case {
  name: string;
  /** Pages a slice that fits in one request yields: a batch export yields one per partition (two hours). */
  pagesWhenSmall: number;
  query: SourceQuery;
  create(query: SourceQuery, client: ServiceClient): Source | PartitionedSource;
}

const base: Pick<SourceQuery, "window" | "filters" | "includes_eu" | "domain"> = {
  window: { expression: { start: "2026-11-20T00:00:00Z", end: "2026-11-20T02:00:00Z" } },
  filters: [],
  includes_eu: true,
  domain: ["*"],
};

const CASES: Case[] = [
  {
    name: "v2 logs scroll",
    pagesWhenSmall: 1,
    query: {
      ...base,
      kind: "logs",
      api: "v2",
      application: "atr",
      app_type: ["ec2"],
      page_size: 50,
      filters: [],
    },
    create: (query, client) => createScrollSource(query, client),
  },
  {
    name: "v2 workloads scroll",
    pagesWhenSmall: 1,
    query: {
      ...base,
      kind: "workloads",
      api: "v2",
      application: "atr",
      app_type: ["kubernetes"],
      page_size: 50,
      filters: [],
    },
    create: (query, client) => createScrollSource(query, client),
  },
  {
    name: "v3 metrics scroll",
    pagesWhenSmall: 1,
    query: {
      ...base,
      kind: "metrics",
      api: "v3",
      application: "klewer",
      app_type: ["ec2"],
      page_size: 50,
      filters: [],
    },
    create: (query, client) => createScrollSource(query, client),
  },
  {
    name: "v3 jobs point in time",
    pagesWhenSmall: 1,
    query: {
      ...base,
      kind: "jobs",
      api: "v3",
      application: "atr",
      app_type: ["ec2", "kubernetes"],
      page_size: 50,
      filters: [],
    },
    create: (query, client) => createPointInTimeSource(query, client),
  },
  {
    name: "v3 tickets point in time",
    pagesWhenSmall: 1,
    query: {
      ...base,
      kind: "tickets",
      api: "v3",
      application: "atr",
      app_type: ["ec2"],
      page_size: 50,
      filters: [],
    },
    create: (query, client) => createPointInTimeSource(query, client),
  },
  {
    name: "v2 logs batch export",
    pagesWhenSmall: 2,
    query: {
      ...base,
      kind: "logs",
      api: "v2",
      application: "atr",
      app_type: ["ec2"],
      page_size: 50,
      filters: [],
    },
    create: (query, client) => createBatchSource(query, client),
  },
];

function context(signal: AbortSignal): SliceContext {
  return {
    signal,
    log: createSilentLogger(),
    slice,
    run: { pipelineName: "contract", runId: "r", startedAt: new Date() },
    stats: { duplicates: 0 },
  };
}

/** Reads a source as the runner does: a plain source directly, a partitioned one part by part. */
async function* pages(source: Source | PartitionedSource, ctx: SliceContext): AsyncGenerator<Batch> {
  if (!isPartitionedSource(source)) {
    yield* source(ctx);
    return;
  }
  for (const part of await source.parts(ctx)) yield* part.source({ ...ctx, stats: { duplicates: 0 } });
}

async function readAll(source: Source | PartitionedSource, ctx: SliceContext): Promise<Batch[]> {
  const out: Batch[] = [];
  for await (const page of pages(source, ctx)) out.push(page);
  return out;
}

describe.each(CASES)("source contract: $name", ({ query, create, pagesWhenSmall }) => {
  let emulator: RunningEmulator;
  let client: ServiceClient;
  beforeAll(async () => {
    emulator = await startEmulator({ seed: 5, density: 40, batchReadyAfterPolls: 0, quota: 100_000 });
    client = createServiceClient({
      baseUrl: emulator.url,
      authUrl: emulator.url,
      clientId: emulator.clientId,
      clientSecret: emulator.clientSecret,
      retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 2 },
    });
  });
  afterAll(async () => {
    await client.close();
    await emulator.close();
  });

  it("yields nothing for a query that matches nothing", async () => {
    const none = { ...query, filters: [{ term: { "atr.domain_name": "no-such-domain.example" } }] };
    const batches = await readAll(create(none, client), context(new AbortController().signal));
    expect(batches.flat()).toEqual([]);
  });

  it("yields one page (one per partition for a batch) when the slice fits in one", async () => {
    const batches = await readAll(
      create({ ...query, page_size: 10_000 }, client),
      context(new AbortController().signal),
    );
    const rows = batches.flat();
    expect(rows.length).toBeGreaterThan(0);
    expect(batches.length).toBe(pagesWhenSmall);
    expect(rows.every((row) => typeof row._id === "string" && typeof row._index === "string")).toBe(true);
  });

  it("yields many pages, every record once", async () => {
    const batches = await readAll(create(query, client), context(new AbortController().signal));
    const ids = batches.flat().map((row) => row._id);
    expect(batches.length).toBeGreaterThan(2);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("stops when aborted midway, with the abort as the error", async () => {
    const controller = new AbortController();
    const reason = new Error("stopped by the test");
    const seen: Batch[] = [];
    await expect(
      (async () => {
        for await (const page of pages(create(query, client), context(controller.signal))) {
          seen.push(page);
          if (seen.length === 1) controller.abort(reason);
        }
      })(),
    ).rejects.toBe(reason);
    expect(seen).toHaveLength(1);
  });

  it("passes a failing request's error to the caller", async () => {
    emulator.revokeTokens();
    const denied = createServiceClient({
      baseUrl: emulator.url,
      authUrl: emulator.url,
      clientId: emulator.clientId,
      clientSecret: "not-the-secret",
      retry: { maxAttempts: 1, baseDelayMs: 1, maxDelayMs: 1 },
    });
    try {
      await expect(
        readAll(create(query, denied), context(new AbortController().signal)),
      ).rejects.toMatchObject({ code: "AUTH_FAILED" });
    } finally {
      await denied.close();
    }
  });
});
