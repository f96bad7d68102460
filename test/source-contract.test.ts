// One contract suite over every source a data kind offers (v2 scroll, v3 point in time, v3 metrics
// scroll, batch export, the deprecated v1 scroll, aggregations and the billing summary), built through
// the registry as the runner builds them, against the emulator: empty input, one page, many pages, an
// abort midway, and an error that must reach the caller.
import { HIT_BATCH_SIZE } from "../src/decoding/hit-stream.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServiceClient } from "../src/api/client.js";
import type { ServiceClient } from "../src/api/client.js";
import { startEmulator } from "../src/emulator/server.js";
import type { RunningEmulator } from "../src/emulator/server.js";
import { createSilentLogger } from "../src/logger.js";
import { isPartitionedSource } from "../src/core/contracts.js";
import type { RecordBatch, PartitionedSource, SliceContext, Source } from "../src/core/contracts.js";
import type { Retrieval } from "../src/kinds/data-kind.js";
import type { SourceSpec } from "../src/kinds/source-spec.js";
import { createSource } from "../src/components/registry.js";
import { rowsOf } from "../src/core/record-batch.test-support.js";

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
  query: SourceSpec;
  retrieval: Retrieval;
  /** What makes the query match nothing (filters on a domain by default); null when nothing can (v1 takes no filters). */
  empty?: Partial<SourceSpec> | null;
  /** Record sources page and carry hits; aggregation and billing rows are neither. */
  records?: false;
}

function create(query: SourceSpec, retrieval: Retrieval, client: ServiceClient): Source | PartitionedSource {
  return createSource(query, retrieval, { client });
}

const base: Pick<SourceSpec, "window" | "filters" | "includes_eu" | "domain" | "strategy"> = {
  strategy: "auto",
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
    retrieval: "scroll",
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
    retrieval: "scroll",
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
    retrieval: "scroll",
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
    retrieval: "pit",
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
    retrieval: "pit",
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
    retrieval: "batch",
  },
  {
    name: "v1 logs scroll",
    pagesWhenSmall: 1,
    query: {
      ...base,
      kind: "logs",
      api: "v1",
      application: "atr",
      app_type: ["ec2"],
      window: { expression: { start: "now-1d/d", end: "now" } },
      domain: ["alpha.example"],
      page_size: 50,
    },
    empty: null,
    retrieval: "scroll",
  },
  {
    name: "v2 logs aggregation, filtered, one request per app type",
    pagesWhenSmall: 2,
    query: {
      ...base,
      kind: "logs",
      api: "v2",
      application: "atr",
      app_type: ["ec2", "kubernetes"],
      strategy: "aggs",
      filters: [{ exists: { field: "level" } }],
      aggs: { per_hour: { date_histogram: { field: "@timestamp", fixed_interval: "1h" } } },
      page_size: 50,
    },
    retrieval: "aggs",
    records: false,
  },
  {
    name: "v3 jobs aggregation",
    pagesWhenSmall: 1,
    query: {
      ...base,
      kind: "jobs",
      api: "v3",
      application: "atr",
      app_type: ["ec2"],
      strategy: "aggs",
      aggs: { by_state: { terms: { field: "job.state", size: 10 } } },
      page_size: 50,
    },
    retrieval: "aggs",
    records: false,
  },
  {
    name: "billing summary, one query per domain",
    pagesWhenSmall: 2,
    query: {
      ...base,
      kind: "billing",
      api: "v1",
      app_type: [],
      window: { expression: { start: "now-7d/d", end: "now" } },
      domain: ["alpha.example", "beta.example"],
      page_size: 50,
    },
    empty: { domain: [] },
    retrieval: "billing",
    records: false,
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
async function* pages(source: Source | PartitionedSource, ctx: SliceContext): AsyncGenerator<RecordBatch> {
  if (!isPartitionedSource(source)) {
    yield* source(ctx);
    return;
  }
  for (const part of await source.parts(ctx)) yield* part.source({ ...ctx, stats: { duplicates: 0 } });
}

async function readAll(source: Source | PartitionedSource, ctx: SliceContext): Promise<RecordBatch[]> {
  const out: RecordBatch[] = [];
  for await (const page of pages(source, ctx)) out.push(page);
  return out;
}

describe.each(CASES)("source contract: $name", ({ query, retrieval, pagesWhenSmall, empty, records }) => {
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

  // Every test below that a case cannot meet is left out for it, not skipped.
  if (empty !== null)
    it("yields nothing for a query that matches nothing", async () => {
      const none = {
        ...query,
        ...(empty ?? { filters: [{ term: { "atr.domain_name": "no-such-domain.example" } }] }),
      };
      const batches = await readAll(create(none, retrieval, client), context(new AbortController().signal));
      expect(batches.flatMap((batch) => rowsOf(batch))).toEqual([]);
    });

  it("yields one page (one per partition for a batch) when the slice fits in one", async () => {
    const batches = await readAll(
      create({ ...query, page_size: 10_000 }, retrieval, client),
      context(new AbortController().signal),
    );
    const rows = batches.flatMap((batch) => rowsOf(batch));
    expect(rows.length).toBeGreaterThan(0);
    // A page streams out in batches of at most HIT_BATCH_SIZE rows.
    expect(batches.length).toBe(Math.max(pagesWhenSmall, Math.ceil(rows.length / HIT_BATCH_SIZE)));
    for (const batch of batches) expect(rowsOf(batch).length).toBeLessThanOrEqual(HIT_BATCH_SIZE);
    if (records !== false)
      expect(rows.every((row) => typeof row._id === "string" && typeof row._index === "string")).toBe(true);
  });

  if (records !== false)
    it("yields many pages, every record once", async () => {
      const batches = await readAll(create(query, retrieval, client), context(new AbortController().signal));
      const ids = batches.flatMap((batch) => rowsOf(batch)).map((row) => row._id);
      expect(batches.length).toBeGreaterThan(2);
      expect(new Set(ids).size).toBe(ids.length);
    });

  // A source of one request has no midway.
  if (pagesWhenSmall > 1 || records !== false)
    it("stops when aborted midway, with the abort as the error", async () => {
      const controller = new AbortController();
      const reason = new Error("stopped by the test");
      const seen: RecordBatch[] = [];
      await expect(
        (async () => {
          for await (const page of pages(create(query, retrieval, client), context(controller.signal))) {
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
        readAll(create(query, retrieval, denied), context(new AbortController().signal)),
      ).rejects.toMatchObject({ code: "AUTH_FAILED" });
    } finally {
      await denied.close();
    }
  });
});
