// Every paging mechanism read to its end against the emulator with faults on: the pages put together
// equal the emulator's records for the query, nothing lost, nothing twice. A lost context restarts
// the query from its start, as the runner restarts a slice.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PagingContextLostError } from "../src/errors.js";
import { startEmulator } from "../src/emulator/server.js";
import type { RunningEmulator } from "../src/emulator/server.js";
import { createServiceClient } from "../src/api/client.js";
import type { ServiceClient } from "../src/api/client.js";
import { metricsScroll, v1Scroll } from "../src/api/paging/scroll.js";
import { logsScroll } from "../src/kinds/logs.js";
import { workloadsScroll } from "../src/kinds/workloads.js";
import { pageThrough } from "../src/api/paging/pager.js";
import { pointInTime } from "../src/api/paging/point-in-time.js";
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
