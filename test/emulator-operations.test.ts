// Contract: each operation's success envelope, and the status and body of every rule violation.
import { describe, expect } from "vitest";
import type { RunningEmulator } from "../src/emulator/server.js";
import { OPERATIONS } from "../src/api/wire/operations.js";
import type { OperationPath } from "../src/api/wire/operations.js";
import { post, WINDOW } from "./emulator-http.js";
import { tokenFixture, useEmulator } from "./support/use-emulator.js";

const it = useEmulator({ seed: 3, density: 4 }, { preset: false }).extend<{ token: string }>({
  token: tokenFixture(),
});

const domainScope = { application: "atr", ...WINDOW, app_type: "ec2", domain: ["*"] };
const v3Scope = { application: "atr", ...WINDOW, app_type: ["kubernetes"], domain: ["*"] };
const aggs = { by_state: { terms: { field: "workload.state" } } };

/** A valid initial body per operation (batch tokens are filled in by the test). */
const VALID: Record<OperationPath, Record<string, unknown> | undefined> = {
  "/v1/logs/batch": { application: "atr", time_range: "now-2h/h" },
  "/v1/logs/batch/urls": undefined,
  "/v1/logs/batch/status": undefined,
  "/v1/logs/scroll": { application: "quasar", time_range: "now-1h/h", size: 3 },
  "/v1/query": { domain: "alpha.example", time_range: "now-7d/d" },
  "/v2/logs/scroll": { ...domainScope, size: 3 },
  "/v2/logs/batch": domainScope,
  "/v2/logs/batch/status": undefined,
  "/v2/logs/aggs": { ...domainScope, aggs: { by_level: { terms: { field: "level" } } } },
  "/v2/workloads/scroll": { ...domainScope, size: 3 },
  "/v2/workloads/batch": domainScope,
  "/v2/workloads/batch/status": undefined,
  "/v2/workloads/aggs": { ...domainScope, aggs },
  "/v3/logs/mappings": { application: "eventops", app_type: "serverless" },
  "/v3/workloads/mappings": {},
  "/v3/jobs/mappings": undefined,
  "/v3/tickets/mappings": { includes_eu: false },
  "/v3/metrics/mappings": { application: "klewer", app_type: "kubernetes" },
  "/v3/jobs/query": { ...v3Scope, size: 3 },
  "/v3/tickets/query": v3Scope,
  "/v3/metrics/query": { ...v3Scope, application: "klewer" },
  "/v3/jobs/aggs": {
    ...v3Scope,
    aggs: { h: { date_histogram: { field: "@timestamp", calendar_interval: "hour" } } },
  },
  "/v3/tickets/aggs": { ...v3Scope, aggs: { open: { filter: { term: { "ticket.resolved": false } } } } },
  "/v3/metrics/aggs": { ...v3Scope, aggs: { cpu: { avg: { field: "system.cpu.total.pct" } } } },
};

async function batchToken(
  emulator: RunningEmulator,
  token: string,
  path: "/v1/logs/batch" | "/v2/logs/batch" | "/v2/workloads/batch",
): Promise<string> {
  const answer = await post(emulator, path, VALID[path], token);
  return path === "/v1/logs/batch"
    ? String(answer.body["token"])
    : String((answer.body["data"] as { token: string }).token);
}

describe("success envelopes", () => {
  for (const path of Object.keys(OPERATIONS) as OperationPath[]) {
    it(`${path} answers 200 with a body its wire schema accepts`, async ({ service, token }) => {
      const { emulator } = service;
      let body = VALID[path];
      if (path === "/v1/logs/batch/urls" || path === "/v1/logs/batch/status")
        body = { token: await batchToken(emulator, token, "/v1/logs/batch") };
      if (path === "/v2/logs/batch/status")
        body = { token: `  ${await batchToken(emulator, token, "/v2/logs/batch")} ` };
      if (path === "/v2/workloads/batch/status")
        body = { token: await batchToken(emulator, token, "/v2/workloads/batch") };
      const answer = await post(emulator, path, body, token);
      expect(answer.status, answer.text.slice(0, 300)).toBe(200);
      const parsed = OPERATIONS[path].response.safeParse(answer.body);
      expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
      if (path.startsWith("/v1/")) expect(typeof answer.body["daily_requests_remaining"]).toBe("number");
      if (path.startsWith("/v2/"))
        expect((answer.body["meta"] as { api_version: string }).api_version).toBe("v2");
      if (path.startsWith("/v3/")) expect(answer.body["meta"]).not.toHaveProperty("api_version");
    });
  }

  it("lists mappings sorted by name with companions, different per application family", async ({
    service,
    token,
  }) => {
    const { emulator } = service;
    const domain = await post(emulator, "/v3/logs/mappings", { application: "atr", app_type: "ec2" }, token);
    const serverless = await post(
      emulator,
      "/v3/logs/mappings",
      { application: "eventops", app_type: "serverless" },
      token,
    );
    const names = (answer: typeof domain) =>
      (answer.body["data"] as { fields: { name: string }[] }).fields.map((f) => f.name);
    expect(names(domain)).toEqual([...names(domain)].sort());
    expect(names(domain)).toContain("message.keyword");
    expect(names(domain)).not.toContain("function_name");
    expect(names(serverless)).toContain("function_name");
    expect((domain.body["data"] as { field_count: number }).field_count).toBe(names(domain).length);
  });

  it("gives unique request ids and v2 echoes of the scope", async ({ service, token }) => {
    const { emulator } = service;
    const one = await post(
      emulator,
      "/v2/logs/batch",
      {
        ...domainScope,
        app_type: "serverless",
        application: "eventops",
        domain: undefined,
        log_group: ["*"],
        tenant: ["acme"],
        stage: ["dev"],
      },
      token,
    );
    const two = await post(emulator, "/v2/logs/batch", domainScope, token);
    const meta1 = one.body["meta"] as Record<string, unknown>;
    expect(meta1).toMatchObject({
      app_type: "serverless",
      log_group: ["*"],
      tenant: ["acme"],
      stage: ["dev"],
    });
    expect(meta1["request_id"]).not.toBe((two.body["meta"] as Record<string, unknown>)["request_id"]);
  });
});

describe("rule violations", () => {
  const cases: [string, OperationPath, unknown, number][] = [
    ["v1 application not allowed", "/v1/logs/scroll", { application: "nope", time_range: "now-1d/d" }, 400],
    ["v1 query without domain", "/v1/query", { time_range: "now-1d/d" }, 400],
    ["v2 wildcard mixed with names", "/v2/logs/scroll", { ...domainScope, size: 1, domain: ["*", "a"] }, 400],
    ["v2 empty domain", "/v2/workloads/batch", { ...domainScope, domain: [] }, 400],
    [
      "v2 serverless scope missing",
      "/v2/logs/batch",
      { ...domainScope, application: "eventops", app_type: "serverless" },
      400,
    ],
    [
      "v2 end_time not after start_time",
      "/v2/logs/aggs",
      { ...domainScope, end_time: WINDOW.start_time, aggs },
      400,
    ],
    ["v2 logs scroll without size", "/v2/logs/scroll", domainScope, 400],
    ["v2 workloads serverless", "/v2/workloads/scroll", { ...domainScope, app_type: "serverless" }, 400],
    ["v3 unknown field", "/v3/jobs/query", { ...v3Scope, colour: "red" }, 400],
    ["v3 size over 10000", "/v3/jobs/query", { ...v3Scope, size: 10_001 }, 400],
    ["v3 pit_id without search_after", "/v3/tickets/query", { ...v3Scope, pit_id: "x" }, 400],
    ["v3 aggs without aggregations", "/v3/metrics/aggs", { ...v3Scope, aggs: {} }, 400],
    ["v3 mappings unknown field", "/v3/jobs/mappings", { application: "atr" }, 400],
    [
      "v3 logs mappings bad combination",
      "/v3/logs/mappings",
      { application: "atr", app_type: "serverless" },
      400,
    ],
    ["v1 batch urls with unknown token", "/v1/logs/batch/urls", { token: "nope" }, 401],
    ["workloads batch status with unknown token", "/v2/workloads/batch/status", { token: "nope" }, 404],
  ];
  for (const [name, path, body, status] of cases) {
    it(`${name}: ${status}`, async ({ service, token }) => {
      const { emulator } = service;
      const answer = await post(emulator, path, body, token);
      expect(answer.status, answer.text).toBe(status);
      if (path.startsWith("/v1/"))
        expect(answer.body).toMatchObject({ status_code: status, detail: expect.any(String) });
    });
  }

  it("workloads batch status without token: 400 with error and details; unknown: 404 with message", async ({
    service,
    token,
  }) => {
    const { emulator } = service;
    const missing = await post(emulator, "/v2/workloads/batch/status", { token: "   " }, token);
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({
      error: expect.any(String),
      details: expect.stringContaining("token"),
    });
    const unknown = await post(emulator, "/v2/workloads/batch/status", { token: "bt_unknown" }, token);
    expect(unknown.body["message"]).toMatch(/2 hours/);
  });

  it("names the field, the value and what is allowed in a v3 400", async ({ service, token }) => {
    const { emulator } = service;
    const answer = await post(emulator, "/v3/metrics/query", { ...v3Scope, application: "eventops" }, token);
    expect(answer.status).toBe(400);
    expect(answer.body["details"]).toBe('application: "eventops" is not one of atr, klewer, quasar');
  });
});
