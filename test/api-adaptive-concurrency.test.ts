// Adaptive concurrency against the emulator over real HTTP: the requests waiting for an answer at
// once (counted by a proxy in front of the emulator) stay within the client's limit, the limit goes
// down while the service throttles with 429 and comes back once it stops; the day's quota running
// out is not overload. The clock is the test's: retries wait Retry-After without sleeping, and every
// round trip takes no time on it, so the limit moves for the service's answers alone (the rule on
// rising latency is the controller's unit test's), one window per answer.
import { afterAll, describe, expect, it } from "vitest";
import { QuotaExhaustedError } from "../src/errors.js";
import { NO_OBSERVER } from "../src/core/run-observer.js";
import type { EmulatorOptions } from "../src/emulator/options.js";
import { startEmulator } from "../src/emulator/server.js";
import type { RunningEmulator } from "../src/emulator/server.js";
import { createServiceClient } from "../src/api/client.js";
import type { ServiceClient } from "../src/api/client.js";
import { startGateProxy } from "./support/gate-proxy.js";
import type { GateProxy } from "./support/gate-proxy.js";

let now = Date.parse("2026-11-22T00:00:00Z");
const clock = { now: () => now, sleep: async (ms: number) => void (now += ms) };
const cleanup: (() => Promise<void>)[] = [];

interface Setup {
  emulator: RunningEmulator;
  proxy: GateProxy;
  client: ServiceClient;
  /** Every limit the client reported, the first being where it started. */
  limits: number[];
}

async function setup(concurrency: number, options: EmulatorOptions = {}): Promise<Setup> {
  const emulator = await startEmulator({ seed: 5, density: 5, clock: () => now, ...options });
  const proxy = await startGateProxy(emulator.url);
  const limits: number[] = [];
  const client = createServiceClient({
    baseUrl: proxy.url,
    authUrl: proxy.url,
    clientId: emulator.clientId,
    clientSecret: emulator.clientSecret,
    clock,
    random: () => 0.5,
    retry: { maxAttempts: 30, maxElapsedMs: 3_600_000 },
    concurrency,
    roundTripClock: () => 0,
    observer: {
      ...NO_OBSERVER,
      concurrencyChanged: (limit) => limits.push(limit),
    },
  });
  cleanup.push(async () => {
    await client.close();
    await proxy.close();
    await emulator.close();
  });
  return { emulator, proxy, client, limits };
}

afterAll(async () => {
  for (const close of cleanup.splice(0)) await close();
});

/** `count` mappings requests at once, as many slices would send them. */
async function wave(client: ServiceClient, count: number): Promise<void> {
  await Promise.all(Array.from({ length: count }, () => client.call("/v3/jobs/mappings", {})));
}

describe("adaptive concurrency", () => {
  it("lowers the requests in flight under injected 429s and raises them again after", async () => {
    const { emulator, proxy, client, limits } = await setup(6);
    await client.authenticated();
    proxy.takePeakInFlight();

    proxy.holdUntilInFlight(6);
    await wave(client, 24);
    expect(client.gate.limit).toBe(6);
    expect(proxy.takePeakInFlight()).toBe(6);

    emulator.setFaults({ rateLimitRate: 0.6, retryAfterSeconds: 1 });
    const throttledBefore = emulator.faultCounts().rateLimit;
    for (let i = 0; i < 4; i++) await wave(client, 24);
    expect(emulator.faultCounts().rateLimit - throttledBefore).toBeGreaterThan(10);
    const lowest = Math.min(...limits);
    expect(lowest).toBeLessThanOrEqual(2);
    expect(proxy.takePeakInFlight()).toBeLessThanOrEqual(6);

    emulator.setFaults({ rateLimitRate: 0 });
    // One step up per window of answers in which the limit was reached: a few waves bring it back.
    for (let i = 0; i < 20 && client.gate.limit < 6; i++) await wave(client, 24);
    expect(client.gate.limit).toBe(6);
    proxy.takePeakInFlight();
    proxy.holdUntilInFlight(6);
    await wave(client, 24);
    expect(proxy.takePeakInFlight()).toBe(6);
  });

  it("bounds the requests in flight of every operation together", async () => {
    const { proxy, client } = await setup(3);
    await client.authenticated();
    proxy.takePeakInFlight();
    const window = { start_time: "2026-11-20T00:00:00Z", end_time: "2026-11-20T06:00:00Z" };
    const query = { application: "atr", app_type: ["ec2" as const], domain: ["*"], ...window, size: 10 };
    const aggs = { by_domain: { terms: { field: "atr.domain_name", size: 10 } } };
    const logsAggs = {
      application: "atr" as const,
      app_type: "ec2" as const,
      domain: ["*"],
      aggs,
      ...window,
    };
    await Promise.all(
      Array.from({ length: 4 }, () => [
        client.call("/v3/jobs/mappings", {}),
        client.call("/v3/tickets/mappings", {}),
        client.call("/v3/jobs/query", query),
        client.call("/v2/logs/aggs", logsAggs),
      ]).flat(),
    );
    expect(proxy.takePeakInFlight()).toBe(3);
  });

  it("does not take the day's quota running out for overload", async () => {
    const { emulator, client, limits } = await setup(4, { quota: 8 });
    await client.call("/v3/jobs/mappings", {});
    // Another process of the same client spends the rest of the day's quota: this one still believes
    // 7 requests remain, sends 4 at once, and each is answered with the quota's 429.
    const other = createServiceClient({
      baseUrl: emulator.url,
      authUrl: emulator.url,
      clientId: emulator.clientId,
      clientSecret: emulator.clientSecret,
      clock,
    });
    for (let i = 0; i < 7; i++) await other.call("/v3/jobs/mappings", {});
    await other.close();
    await expect(wave(client, 4)).rejects.toBeInstanceOf(QuotaExhaustedError);
    expect(limits).toEqual([4]);
    expect(client.gate.limit).toBe(4);
  });
});
