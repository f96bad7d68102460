// Every paging mechanism read to its end against the emulator with faults on: the pages put together
// equal the emulator's records for the query, nothing lost, nothing twice. A lost context restarts
// the query from its start, as the runner restarts a slice.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PagingContextLostError, RequestValidationError } from "../src/errors.js";
import { startEmulator } from "../src/emulator/server.js";
import type { RunningEmulator } from "../src/emulator/server.js";
import { createServiceClient } from "../src/api/client.js";
import type { ServiceClient } from "../src/api/client.js";
import { v1Scroll } from "../src/api/paging/v1-scroll.js";
import { logsScroll } from "../src/kinds/logs.js";
import { workloadsScroll } from "../src/kinds/workloads.js";
import { pageThrough } from "../src/api/paging/pager.js";
import type { PagingStrategy } from "../src/api/paging/pager.js";
import { pointInTime } from "../src/api/paging/point-in-time.js";
import type { PointInTimePath } from "../src/api/paging/point-in-time.js";
import { metricsScroll } from "../src/api/paging/metrics-scroll.js";
import { V3_HITS, v1HitArray, v2HitArray } from "../src/api/hit-arrays.js";
import type { PagePart } from "../src/api/paging/page.js";

const START = Date.parse("2026-11-20T00:00:00Z");
let now = START + 2 * 86_400_000;
const clock = { now: () => now, sleep: async (ms: number) => void (now += ms) };
const window = { start_time: "2026-11-20T00:00:00Z", end_time: "2026-11-20T08:00:00Z" };
const FAULTS = {
  errorRate: 0.08,
  rateLimitRate: 0.05,
  resetRate: 0.04,
  truncateRate: 0.04,
  contextLossRate: 0.04,
  tokenRevocationRate: 0.05,
};

let emulator: RunningEmulator;
let client: ServiceClient;

beforeAll(async () => {
  emulator = await startEmulator({ seed: 11, density: 40, clock: () => now, faults: FAULTS });
  client = createServiceClient({
    baseUrl: emulator.url,
    authUrl: emulator.url,
    clientId: emulator.clientId,
    clientSecret: emulator.clientSecret,
    clock,
    random: () => 0.5,
    retry: { maxAttempts: 12, maxElapsedMs: 600_000 },
  });
});

afterAll(async () => {
  await client.close();
  await emulator.close();
});

/** Reads all pages, starting again after a lost context (bounded), and returns the hit ids in order. */
async function readAll(
  pages: () => AsyncIterable<PagePart<{ _id: string }>>,
): Promise<{ ids: string[]; restarts: number }> {
  for (let restarts = 0; restarts < 40; restarts += 1) {
    const ids: string[] = [];
    try {
      for await (const part of pages())
        if (part.type === "hits") ids.push(...part.hits.map((hit) => hit._id));
      return { ids, restarts };
    } catch (error) {
      if (!(error instanceof PagingContextLostError)) throw error;
    }
  }
  throw new Error("too many restarts");
}

async function expectedIds(
  target: Parameters<RunningEmulator["expectedHits"]>[0],
  body: Record<string, unknown>,
): Promise<string[]> {
  const ids: string[] = [];
  for await (const hit of emulator.expectedHits(target, body)) ids.push(hit._id);
  return ids;
}

describe("paging against the emulator with faults on", () => {
  it("v2 logs scroll", async () => {
    const body = {
      application: "atr" as const,
      app_type: "ec2" as const,
      domain: ["*"],
      size: 37,
      ...window,
    };
    const { ids } = await readAll(() => pageThrough(client, logsScroll(body), v2HitArray("logs")));
    const expected = await expectedIds("/v2/logs/scroll", body);
    expect(expected.length).toBeGreaterThan(100);
    expect(ids).toEqual(expected);
  });

  it("v2 logs scroll, serverless scope", async () => {
    const body = {
      application: "eventops" as const,
      app_type: "serverless" as const,
      log_group: ["*"],
      tenant: ["acme"],
      stage: ["prod"],
      size: 25,
      ...window,
    };
    const { ids } = await readAll(() => pageThrough(client, logsScroll(body), v2HitArray("logs")));
    expect(ids).toEqual(await expectedIds("/v2/logs/scroll", body));
  });

  it("v2 workloads scroll", async () => {
    const body = {
      application: "atr" as const,
      app_type: "kubernetes" as const,
      domain: ["alpha.example"],
      size: 20,
      ...window,
    };
    const { ids } = await readAll(() => pageThrough(client, workloadsScroll(body), v2HitArray("workloads")));
    const expected = await expectedIds("/v2/workloads/scroll", body);
    expect(expected.length).toBeGreaterThan(40);
    expect(ids).toEqual(expected);
  });

  it("v1 logs scroll", async () => {
    const body = { application: "atr" as const, time_range: "now-3h/h", size: 120 };
    const { ids } = await readAll(() => pageThrough(client, v1Scroll(body), v1HitArray("logs")));
    const expected = await expectedIds("/v1/logs/scroll", body);
    expect(expected.length).toBeGreaterThan(100);
    expect(ids).toEqual(expected);
  });

  for (const kind of ["jobs", "tickets"] as const) {
    it(`v3 ${kind} point in time`, async () => {
      const body = {
        application: "atr" as const,
        app_type: ["ec2" as const, "kubernetes" as const],
        domain: ["*"],
        size: 30,
        ...window,
      };
      const { ids } = await readAll(() =>
        pageThrough(client, pointInTime(`/v3/${kind}/query`, body), V3_HITS),
      );
      const expected = await expectedIds(`/v3/${kind}/query`, body);
      expect(expected.length).toBeGreaterThan(60);
      expect(ids).toEqual(expected);
      expect(new Set(ids).size).toBe(ids.length);
    });
  }

  it("v3 metrics scroll with fields", async () => {
    const body = {
      application: "klewer" as const,
      app_type: ["ec2" as const],
      domain: ["*"],
      size: 40,
      fields: ["host.hostname", "system.cpu.total.pct"],
      ...window,
    };
    const { ids } = await readAll(() => pageThrough(client, metricsScroll(body), V3_HITS));
    const expected = await expectedIds("/v3/metrics/query", body);
    expect(expected.length).toBeGreaterThan(60);
    expect(ids).toEqual(expected);
  });
});

describe("paging with the next page asked for ahead (the prefetch option), faults on", () => {
  const body = { application: "atr" as const, domain: ["*"], ...window };
  const mechanisms = {
    "v2 logs scroll": () =>
      pageThrough(client, logsScroll({ ...body, app_type: "ec2", size: 37 }), v2HitArray("logs"), {
        prefetch: true,
      }),
    "v1 logs scroll": () =>
      pageThrough(
        client,
        v1Scroll({ application: "atr", time_range: "now-3h/h", size: 120 }),
        v1HitArray("logs"),
        {
          prefetch: true,
        },
      ),
    "v3 jobs point in time": () =>
      pageThrough(client, pointInTime("/v3/jobs/query", { ...body, app_type: ["ec2"], size: 30 }), V3_HITS, {
        prefetch: true,
      }),
    "v3 metrics scroll": () =>
      pageThrough(client, metricsScroll({ ...body, app_type: ["ec2"], size: 40 }), V3_HITS, {
        prefetch: true,
      }),
  };
  const targets = {
    "v2 logs scroll": ["/v2/logs/scroll", { ...body, app_type: "ec2", size: 37 }],
    "v1 logs scroll": ["/v1/logs/scroll", { application: "atr", time_range: "now-3h/h", size: 120 }],
    "v3 jobs point in time": ["/v3/jobs/query", { ...body, app_type: ["ec2"], size: 30 }],
    "v3 metrics scroll": ["/v3/metrics/query", { ...body, app_type: ["ec2"], size: 40 }],
  } as const;
  for (const [name, pages] of Object.entries(mechanisms)) {
    it(`${name}: every record once, in the service's order`, async () => {
      const [target, query] = targets[name as keyof typeof targets];
      // Read first: v1's window is relative to the emulator's clock, which retries move on.
      const { ids } = await readAll(pages);
      const expected = await expectedIds(target, query);
      expect(expected.length).toBeGreaterThan(60);
      expect(ids).toEqual(expected);
    });
  }
});

describe("paging with the next page asked for ahead (the prefetch option), no faults", () => {
  let quiet: RunningEmulator;
  let quietClient: ServiceClient;
  beforeAll(async () => {
    quiet = await startEmulator({ seed: 11, density: 40, clock: () => now });
    quietClient = createServiceClient({
      baseUrl: quiet.url,
      authUrl: quiet.url,
      clientId: quiet.clientId,
      clientSecret: quiet.clientSecret,
      clock,
      random: () => 0.5,
    });
  });
  afterAll(async () => {
    await quietClient.close();
    await quiet.close();
  });

  const query = {
    application: "atr" as const,
    app_type: ["ec2" as const, "kubernetes" as const],
    domain: ["*"],
    size: 30,
    ...window,
  };

  /** The point in time, counting the next requests the paging asked it for. */
  function counted(asked: { next: number }, override?: PagingStrategy<PointInTimePath>["next"]) {
    const strategy = pointInTime("/v3/jobs/query", query);
    return {
      ...strategy,
      next(response: Parameters<typeof strategy.next>[0], size: number | undefined) {
        asked.next += 1;
        return (override ?? strategy.next)(response, size);
      },
    };
  }

  async function partsOf(prefetch: boolean, strategy: PagingStrategy<PointInTimePath>) {
    const parts: string[] = [];
    const error = await (async () => {
      for await (const part of pageThrough(quietClient, strategy, V3_HITS, { prefetch }))
        parts.push(
          part.type === "hits" ? part.hits.map((hit) => hit._id).join(",") : `end ${part.pageNumber}`,
        );
    })().catch((caught: unknown) => caught);
    return { parts, error };
  }

  it("asks for the next page before the consumer is handed this page's hits, and for no page the paging would not ask for", async () => {
    const before = quiet.requestCount("/v3/jobs/query");
    const sequential = { next: 0 };
    const alone = await partsOf(false, counted(sequential));
    const sent = quiet.requestCount("/v3/jobs/query") - before;

    const ahead = { next: 0 };
    const seenAtFirstHits: number[] = [];
    const parts: string[] = [];
    for await (const part of pageThrough(quietClient, counted(ahead), V3_HITS, { prefetch: true })) {
      if (part.type === "hits" && parts.at(-1)?.startsWith("end") !== false) seenAtFirstHits.push(ahead.next);
      parts.push(part.type === "hits" ? part.hits.map((hit) => hit._id).join(",") : `end ${part.pageNumber}`);
    }
    expect(alone.error).toBeUndefined();
    expect(parts).toEqual(alone.parts);
    expect(alone.parts.filter((part) => part.startsWith("end")).length).toBeGreaterThan(3);
    // Page n's hits reach the consumer once the request for page n + 1 is known (and sent).
    expect(seenAtFirstHits).toEqual(seenAtFirstHits.map((_, index) => index + 1));
    expect(ahead.next).toBe(sequential.next);
    expect(quiet.requestCount("/v3/jobs/query") - before - sent).toBe(sent);
  });

  it("aborts the page asked for ahead when the consumer stops, and sends nothing after it", async () => {
    const before = quiet.requestCount("/v3/jobs/query");
    for await (const part of pageThrough(quietClient, pointInTime("/v3/jobs/query", query), V3_HITS, {
      prefetch: true,
    })) {
      if (part.type === "hits") break;
    }
    expect(quiet.requestCount("/v3/jobs/query") - before).toBeLessThanOrEqual(2);
    expect(quietClient.quota.snapshot().inFlight).toBe(0);
    const settled = quiet.requestCount("/v3/jobs/query");
    await quietClient.call("/v3/jobs/mappings", {});
    expect(quiet.requestCount("/v3/jobs/query")).toBe(settled);
  });

  it("hands on the page before a failed one whole, then the failure, as without it", async () => {
    // The third page's request is one the client refuses before sending it.
    let pages = 0;
    const broken = (asked: { next: number }) =>
      counted(asked, (response, size) => {
        pages += 1;
        const next = pointInTime("/v3/jobs/query", query).next(response, size);
        return pages % 2 === 0 && next !== undefined ? { ...next, body: { ...next.body, size: 0 } } : next;
      });
    pages = 0;
    const alone = await partsOf(false, broken({ next: 0 }));
    pages = 0;
    const ahead = await partsOf(true, broken({ next: 0 }));
    expect(alone.parts.filter((part) => part.startsWith("end"))).toEqual(["end 1", "end 2"]);
    expect(ahead.parts).toEqual(alone.parts);
    expect(ahead.error).toBeInstanceOf(RequestValidationError);
    expect(String(ahead.error)).toBe(String(alone.error));
  });
});
