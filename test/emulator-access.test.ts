// Contract: authentication (token request, 401 missing/invalid/expired/revoked), 403 for a client
// without permission, the daily quota and 429, 413 over the payload limit, and seeded faults.
import { afterEach, describe, expect, it } from "vitest";
import { startEmulator } from "../src/emulator/server.js";
import type { EmulatorOptions, RunningEmulator } from "../src/emulator/server.js";
import { LIMITED_CLIENT_ID, LIMITED_CLIENT_SECRET } from "../src/emulator/options.js";
import { request } from "undici";
import { fetchToken, manualClock, post, WINDOW } from "./emulator-http.js";

const running: RunningEmulator[] = [];
async function start(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const emulator = await startEmulator({ density: 3, ...options });
  running.push(emulator);
  return emulator;
}
afterEach(async () => {
  await Promise.all(running.splice(0).map((e) => e.close()));
});

const jobs = { application: "atr", ...WINDOW, app_type: ["ec2"], domain: ["*"], size: 10 };

describe("authentication", () => {
  it("refuses wrong client credentials at the token request", async () => {
    const emulator = await start();
    await expect(fetchToken(emulator, emulator.clientId, "wrong")).rejects.toThrow(/401/);
    const response = await request(`${emulator.url}/oauth2/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "grant_type=password&client_id=mdq-demo&client_secret=mdq-demo-secret",
    });
    expect(response.statusCode).toBe(400);
    await response.body.dump();
  });

  it("issues a JWT whose expiry follows the token lifetime", async () => {
    const emulator = await start({ tokenTtlSeconds: 3600 });
    const token = await fetchToken(emulator);
    const payload = JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString()) as {
      exp: number;
      iat: number;
    };
    expect(payload.exp - payload.iat).toBe(3600);
  });

  it("answers 401 for a missing or invalid token (v1 body with status_code and detail)", async () => {
    const emulator = await start();
    expect((await post(emulator, "/v3/jobs/query", jobs, undefined)).status).toBe(401);
    const v1 = await post(emulator, "/v1/query", { domain: "d", time_range: "now-1d/d" }, "not-a-jwt");
    expect(v1.status).toBe(401);
    expect(v1.body).toMatchObject({ status_code: 401, detail: expect.any(String) });
  });

  it("answers 401 once the token has expired, without sleeping", async () => {
    const clock = manualClock();
    const emulator = await start({ clock: clock.now, tokenTtlSeconds: 3600 });
    const token = await fetchToken(emulator);
    clock.advance(3599_000);
    expect((await post(emulator, "/v3/jobs/query", jobs, token)).status).toBe(200);
    clock.advance(2_000);
    expect((await post(emulator, "/v3/jobs/query", jobs, token)).status).toBe(401);
    expect((await post(emulator, "/v3/jobs/query", jobs, await fetchToken(emulator))).status).toBe(200);
  });

  it("answers 401 for revoked tokens; a new token works", async () => {
    const emulator = await start();
    const token = await fetchToken(emulator);
    emulator.revokeTokens();
    expect((await post(emulator, "/v3/jobs/query", jobs, token)).status).toBe(401);
    expect((await post(emulator, "/v3/jobs/query", jobs, await fetchToken(emulator))).status).toBe(200);
  });

  it("answers 403 to a valid client that lacks the permission", async () => {
    const emulator = await start();
    const token = await fetchToken(emulator, LIMITED_CLIENT_ID, LIMITED_CLIENT_SECRET);
    expect((await post(emulator, "/v3/jobs/query", jobs, token)).status).toBe(403);
    expect((await post(emulator, "/v3/jobs/mappings", {}, token)).status).toBe(200);
  });
});

describe("limits", () => {
  it("counts down the daily quota, answers 429 when it is gone, and resets the next UTC day", async () => {
    const clock = manualClock(Date.parse("2026-03-10T23:00:00Z"));
    const emulator = await start({ quota: 3, clock: clock.now });
    const token = await fetchToken(emulator);
    const remaining: unknown[] = [];
    for (let i = 0; i < 3; i++) {
      const answer = await post(emulator, "/v3/jobs/mappings", {}, token);
      remaining.push(
        (answer.body["meta"] as { rate_limit: { daily_remaining: number } }).rate_limit.daily_remaining,
      );
    }
    expect(remaining).toEqual([2, 1, 0]);
    const refused = await post(emulator, "/v3/jobs/mappings", {}, token);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers["retry-after"])).toBe(3600);
    clock.advance(3600_000);
    expect((await post(emulator, "/v3/jobs/mappings", {}, await fetchToken(emulator))).status).toBe(200);
  });

  it("answers 413 when a v3 query page is over the payload limit; a smaller size passes", async () => {
    const emulator = await start({ payloadLimitBytes: 20_000, density: 50 });
    const token = await fetchToken(emulator);
    expect((await post(emulator, "/v3/jobs/query", { ...jobs, size: 200 }, token)).status).toBe(413);
    expect((await post(emulator, "/v3/jobs/query", { ...jobs, size: 5 }, token)).status).toBe(200);
  });
});

describe("faults", () => {
  it("answers 429 with Retry-After at the configured rate, and 5xx", async () => {
    const emulator = await start({ faults: { rateLimitRate: 1, retryAfterSeconds: 7 } });
    const token = await fetchToken(emulator);
    const limited = await post(emulator, "/v3/jobs/query", jobs, token);
    expect(limited.status).toBe(429);
    expect(limited.headers["retry-after"]).toBe("7");
    emulator.setFaults({ rateLimitRate: 0, errorRate: 1 });
    expect([500, 502, 503]).toContain((await post(emulator, "/v3/jobs/query", jobs, token)).status);
    emulator.setFaults({ errorRate: 0 });
    expect((await post(emulator, "/v3/jobs/query", jobs, token)).status).toBe(200);
  });

  it("repeats the same fault sequence for the same seed", async () => {
    const statuses = async () => {
      const emulator = await start({ seed: 9, faults: { errorRate: 0.3, rateLimitRate: 0.2 } });
      const token = await fetchToken(emulator);
      const out: number[] = [];
      for (let i = 0; i < 12; i++) out.push((await post(emulator, "/v3/jobs/mappings", {}, token)).status);
      return out;
    };
    const first = await statuses();
    expect(first.some((s) => s !== 200)).toBe(true);
    expect(first.some((s) => s === 200)).toBe(true);
    expect(await statuses()).toEqual(first);
  });

  it("truncates bodies, resets connections and loses contexts when asked", async () => {
    const emulator = await start({ faults: { truncateRate: 1 } });
    const token = await fetchToken(emulator);
    const truncated = await post(emulator, "/v3/jobs/query", jobs, token);
    expect(() => JSON.parse(truncated.text)).toThrow();
    emulator.setFaults({ truncateRate: 0, resetRate: 1 });
    await expect(post(emulator, "/v3/jobs/query", jobs, token)).rejects.toThrow();
    emulator.setFaults({ resetRate: 0 });
    const first = await post(emulator, "/v3/metrics/query", { ...jobs, application: "atr", size: 2 }, token);
    const scrollId = (first.body["meta"] as { pagination: { scroll_id: string } }).pagination.scroll_id;
    emulator.setFaults({ contextLossRate: 1 });
    expect((await post(emulator, "/v3/metrics/query", { scroll_id: scrollId }, token)).status).toBe(404);
  });
});
