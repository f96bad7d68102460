import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServiceClient } from "../../api/client.js";
import type { ServiceClient } from "../../api/client.js";
import { startEmulator } from "../../emulator/server.js";
import type { RunningEmulator } from "../../emulator/server.js";
import { defaultComponents, kindOf } from "../../components/environment.js";
import type { SourceSpec } from "../../kinds/source-spec.js";
import { fixedInterval, MAX_PROBE_BUCKETS, probeCounts, readHistogram } from "./probe-counts.js";

const MINUTE = 60_000;

describe("fixedInterval", () => {
  it("names a slice's length in the largest unit that divides it, weeks as days", () => {
    expect(fixedInterval(15 * MINUTE)).toBe("15m");
    expect(fixedInterval(90 * MINUTE)).toBe("90m");
    expect(fixedInterval(60 * MINUTE)).toBe("1h");
    expect(fixedInterval(7 * 24 * 60 * MINUTE)).toBe("7d");
    expect(fixedInterval(30_000)).toBe("30s");
  });
});

describe("readHistogram", () => {
  const range = {
    from: Date.parse("2026-11-20T00:10:00Z"),
    to: Date.parse("2026-11-20T01:00:00Z"),
    intervalMs: 15 * MINUTE,
  };
  it("takes the bucket a clipped first slice lies in, and refuses one before it", () => {
    const first = Date.parse("2026-11-20T00:00:00Z");
    const aggs = (key: unknown, count: unknown) => ({ per_slice: { buckets: [{ key, doc_count: count }] } });
    expect(readHistogram(aggs(first, 3), range, "op")).toEqual([[first, 3]]);
    expect(() => readHistogram(aggs(first - 15 * MINUTE, 3), range, "op")).toThrow(/bucket 0 has key/);
    expect(() => readHistogram(aggs(first, "3"), range, "op")).toThrow(/doc_count "3"/);
  });
});

describe("probeCounts against a service that refuses more buckets than a limit", () => {
  let emulator: RunningEmulator;
  let client: ServiceClient;
  beforeAll(async () => {
    emulator = await startEmulator({ seed: 4, density: 30, maxBuckets: MAX_PROBE_BUCKETS });
    client = createServiceClient({
      baseUrl: emulator.url,
      authUrl: emulator.url,
      clientId: emulator.clientId,
      clientSecret: emulator.clientSecret,
    });
  });
  afterAll(async () => {
    await client.close();
    await emulator.close();
  });

  it("counts a week of 1-minute slices (10,080) with two histograms, every record once", async () => {
    const query = {
      kind: "jobs",
      api: "v3",
      application: "atr",
      app_type: ["ec2"],
      domain: ["*"],
      window: { expression: { start: "2026-11-16T00:00:00Z", end: "2026-11-23T00:00:00Z" } },
      page_size: 1000,
      filters: [],
      includes_eu: true,
      strategy: "auto",
    } as SourceSpec;
    const start = new Date("2026-11-16T00:00:00Z");
    const end = new Date("2026-11-23T00:00:00Z");
    const before = emulator.requestCount("/v3/jobs/aggs");
    const probe = await probeCounts(client, query, kindOf(defaultComponents(), "jobs"), {
      start,
      end,
      intervalMs: MINUTE,
    });
    expect(emulator.requestCount("/v3/jobs/aggs") - before).toBe(2);
    expect(probe?.requests).toBe(2);
    const total = [...(probe?.counts.values() ?? [])].reduce((sum, count) => sum + count, 0);
    const body = {
      application: "atr",
      app_type: ["ec2"],
      domain: ["*"],
      start_time: start.toISOString(),
      end_time: end.toISOString(),
    };
    expect(total).toBe(emulator.expectedCount("/v3/jobs/query", body));
  });
});
