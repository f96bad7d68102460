// Every operation of the spec through the client against the emulator (with faults on), plus local
// validation, 403, the quota reserve, quota exhaustion and the one deprecation warning per client.
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PermissionError, QuotaExhaustedError, RequestValidationError } from "../src/errors.js";
import { createLogger } from "../src/logger.js";
import { LIMITED_CLIENT_ID, LIMITED_CLIENT_SECRET } from "../src/emulator/options.js";
import type { EmulatorOptions } from "../src/emulator/options.js";
import { startEmulator } from "../src/emulator/server.js";
import type { RunningEmulator } from "../src/emulator/server.js";
import { createServiceClient } from "../src/api/client.js";
import type { ServiceClient, ServiceClientOptions } from "../src/api/client.js";

let now = Date.parse("2026-11-22T00:00:00Z");
const clock = { now: () => now, sleep: async (ms: number) => void (now += ms) };
const window = { start_time: "2026-11-20T00:00:00Z", end_time: "2026-11-20T06:00:00Z" };
const aggs = { by_domain: { terms: { field: "atr.domain_name", size: 10 } } };
const cleanup: (() => Promise<void>)[] = [];

async function setup(
  options: EmulatorOptions = {},
  clientOptions: Partial<ServiceClientOptions> = {},
): Promise<{ emulator: RunningEmulator; client: ServiceClient }> {
  const emulator = await startEmulator({ seed: 3, density: 20, clock: () => now, ...options });
  const client = createServiceClient({
    baseUrl: emulator.url,
    authUrl: emulator.url,
    clientId: emulator.clientId,
    clientSecret: emulator.clientSecret,
    clock,
    random: () => 0.5,
    retry: { maxAttempts: 12, maxElapsedMs: 600_000 },
    ...clientOptions,
  });
  cleanup.push(async () => {
    await client.close();
    await emulator.close();
  });
  return { emulator, client };
}

afterAll(async () => {
  for (const close of cleanup.splice(0)) await close();
});

describe("every operation", () => {
  let client: ServiceClient;
  beforeAll(async () => {
    ({ client } = await setup({
      faults: { errorRate: 0.1, rateLimitRate: 0.05, resetRate: 0.05, tokenRevocationRate: 0.1 },
    }));
  });

  it("v1 billing query", async () => {
    const res = await client.call("/v1/query", { domain: "alpha.example", time_range: "now-7d/d" });
    expect(res.summary.domain).toBe("alpha.example");
    expect(res.daily_requests_remaining).toBeGreaterThan(0);
  });

  it("v2 logs and workloads aggs", async () => {
    const logs = await client.call("/v2/logs/aggs", {
      application: "atr",
      app_type: "ec2",
      domain: ["*"],
      aggs,
      ...window,
    });
    expect(logs.data.total_documents).toBeGreaterThan(0);
    expect(logs.data.aggregations).toHaveProperty("by_domain");
    const workloads = await client.call("/v2/workloads/aggs", {
      application: "atr",
      app_type: "ec2",
      domain: ["*"],
      aggs,
      ...window,
    });
    expect(workloads.data.total_documents).toBeGreaterThan(0);
  });

  it("v3 aggs of jobs, tickets and metrics", async () => {
    for (const path of ["/v3/jobs/aggs", "/v3/tickets/aggs"] as const) {
      const res = await client.call(path, {
        application: "atr",
        app_type: ["ec2"],
        domain: ["*"],
        aggs,
        ...window,
      });
      expect(res.data.total).toBeGreaterThan(0);
    }
    const metrics = await client.call("/v3/metrics/aggs", {
      application: "quasar",
      app_type: ["kubernetes"],
      domain: ["*"],
      aggs,
      ...window,
    });
    expect(metrics.meta.pagination.pit_id).toBeNull();
  });

  it("v3 mappings of every kind", async () => {
    const logs = await client.call("/v3/logs/mappings", { application: "eventops", app_type: "serverless" });
    expect(logs.data.field_count).toBe(logs.data.fields.length);
    for (const path of ["/v3/workloads/mappings", "/v3/jobs/mappings", "/v3/tickets/mappings"] as const) {
      expect((await client.call(path, {})).data.fields.length).toBeGreaterThan(0);
    }
    const metrics = await client.call("/v3/metrics/mappings", {
      application: "atr",
      app_type: "ec2",
      includes_eu: false,
    });
    expect(metrics.data.fields.map((f) => f.name)).toContain("system.cpu.total.pct");
  });

  it("batch create and status operations (v1 and v2)", async () => {
    const v2 = await client.call("/v2/workloads/batch", {
      application: "atr",
      app_type: "ec2",
      domain: ["*"],
      ...window,
    });
    const status = await client.call("/v2/workloads/batch/status", { token: v2.data.token });
    expect(status).toBeDefined();
    const logs = await client.call("/v2/logs/batch", {
      application: "atr",
      app_type: "ec2",
      domain: ["*"],
      ...window,
    });
    await client.call("/v2/logs/batch/status", { token: logs.data.token });
    const v1 = await client.call("/v1/logs/batch", { application: "atr", time_range: "now-1h/h" });
    expect(
      (await client.call("/v1/logs/batch/urls", { token: v1.token })).presigned_urls.length,
    ).toBeGreaterThan(0);
  });
});

describe("errors", () => {
  it("rejects a bad request locally, naming the field, the value and what is allowed", async () => {
    const { emulator, client } = await setup();
    const run = client.call("/v3/jobs/query", {
      application: "atr",
      app_type: ["caas" as "ec2"],
      domain: ["*", "x"],
      ...window,
    });
    await expect(run).rejects.toBeInstanceOf(RequestValidationError);
    // The message is where the field is named: the element's path, its value, and what is allowed.
    await expect(run).rejects.toThrow(/app_type\.0: "caas" is not one of ec2, kubernetes/);
    expect(emulator.requestCount("/v3/jobs/query")).toBe(0);
  });

  it("a 403 is a PermissionError naming the operation", async () => {
    const { client } = await setup({}, { clientId: LIMITED_CLIENT_ID, clientSecret: LIMITED_CLIENT_SECRET });
    await expect(client.call("/v1/query", { domain: "a", time_range: "now-1d/d" })).rejects.toThrow(
      PermissionError,
    );
    await expect(client.call("/v1/query", { domain: "a", time_range: "now-1d/d" })).rejects.toThrow(
      /\/v1\/query/,
    );
  });

  it("refuses before sending once the reserve is reached", async () => {
    const { emulator, client } = await setup({ quota: 5 }, { quotaReserve: 2 });
    const sent = async () => client.call("/v3/jobs/mappings", {});
    await sent(); // 4 left
    await sent(); // 3 left
    await sent(); // 2 left: the reserve
    await expect(sent()).rejects.toBeInstanceOf(QuotaExhaustedError);
    expect(emulator.requestCount("/v3/jobs/mappings")).toBe(3);
    expect(client.quota.snapshot()).toMatchObject({ remaining: 2, reserve: 2 });
  });

  it("a 429 once the day's quota is gone is QuotaExhaustedError, not retried", async () => {
    const { emulator, client } = await setup({ quota: 2 });
    await client.call("/v3/jobs/mappings", {});
    await client.call("/v3/jobs/mappings", {});
    // A second client knows nothing of the count yet: it sends, and the 429 (Retry-After until the
    // quota renews, past the retry budget) stops it at once.
    const other = createServiceClient({
      baseUrl: emulator.url,
      authUrl: emulator.url,
      clientId: emulator.clientId,
      clientSecret: emulator.clientSecret,
      clock,
    });
    await expect(other.call("/v3/jobs/mappings", {})).rejects.toBeInstanceOf(QuotaExhaustedError);
    await expect(other.call("/v3/jobs/mappings", {})).rejects.toBeInstanceOf(QuotaExhaustedError);
    await expect(client.call("/v3/jobs/mappings", {})).rejects.toBeInstanceOf(QuotaExhaustedError);
    expect(emulator.requestCount("/v3/jobs/mappings")).toBe(3);
    await other.close();
  });

  it("warns once per client about the deprecated v1 logs endpoints, naming the v2 replacement", async () => {
    const lines: string[] = [];
    const destination = new Writable({
      write: (chunk: Buffer, _e, done) => void (lines.push(chunk.toString()), done()),
    });
    const { client } = await setup({}, { logger: createLogger({ level: "warn", destination }) });
    await client.call("/v1/logs/scroll", { application: "atr", time_range: "now-1h/h", size: 5 });
    await client.call("/v1/logs/batch", { application: "atr", time_range: "now-1h/h" });
    const warnings = lines.filter((line) => line.includes("deprecated"));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain("/v2/logs/scroll");
  });
});
