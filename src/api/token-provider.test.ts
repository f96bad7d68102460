import { describe, expect, it } from "vitest";
import { SignJWT } from "jose";
import { createSilentLogger } from "../logger.js";
import { AuthError } from "../errors.js";
import { createTokenProvider } from "./token-provider.js";
import type { HttpRequest, HttpResponse, HttpTransport } from "./http-transport.js";
import { HttpStatusError } from "./http-status-error.js";

function body(text: string): HttpResponse["body"] {
  // Only text() and excerpt() are used by the provider; a stand-in keeps the test offline.
  return { text: async () => text, excerpt: async () => text } as unknown as HttpResponse["body"];
}

async function jwt(expSeconds: number): Promise<string> {
  return new SignJWT({})
    .setProtectedHeader({ alg: "HS256" })
    .setExpirationTime(expSeconds)
    .sign(new Uint8Array(32));
}

function setup(answer: (n: number) => Promise<{ status: number; text: string }>) {
  let now = 1_000_000_000_000;
  const sent: HttpRequest[] = [];
  const http: HttpTransport = {
    async send(request) {
      sent.push(request);
      const { status, text } = await answer(sent.length);
      return { status, headers: {}, body: body(text) };
    },
    close: async () => {},
  };
  const clock = { now: () => now, sleep: async (ms: number) => void (now += ms) };
  const tokens = createTokenProvider({
    authUrl: "http://issuer.test/",
    clientId: "id",
    clientSecret: "s3cret-value",
    http,
    clock,
    logger: createSilentLogger(),
    userAgent: "test",
  });
  return {
    tokens,
    sent,
    advance: (ms: number) => void (now += ms),
    nowSeconds: () => Math.floor(now / 1000),
  };
}

describe("createTokenProvider", () => {
  it("sends one form-encoded request however many callers wait, and reuses the token until near expiry", async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { tokens, sent, advance, nowSeconds } = setup(async () => {
      await gate;
      return { status: 200, text: JSON.stringify({ access_token: await jwt(nowSeconds() + 600) }) };
    });
    const waiting = Array.from({ length: 20 }, () => tokens.getToken());
    release();
    const got = await Promise.all(waiting);
    expect(new Set(got).size).toBe(1);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.url).toBe("http://issuer.test/oauth2/token");
    expect(sent[0]?.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(new URLSearchParams(sent[0]?.body).get("grant_type")).toBe("client_credentials");

    advance(500_000); // 100 s before exp: still reused (margin 60 s)
    await tokens.getToken();
    expect(sent).toHaveLength(1);
    advance(50_000); // inside the margin: refreshed
    await tokens.getToken();
    expect(sent).toHaveLength(2);
  });

  it("refreshes once after several 401s on the same token", async () => {
    const { tokens, sent, nowSeconds } = setup(async (n) => ({
      status: 200,
      text: JSON.stringify({ access_token: await jwt(nowSeconds() + 3600 + n) }),
    }));
    const first = await tokens.getToken();
    tokens.invalidate(first);
    tokens.invalidate(first);
    const [a, b] = await Promise.all([tokens.getToken(), tokens.getToken()]);
    expect(a).toBe(b);
    expect(a).not.toBe(first);
    expect(sent).toHaveLength(2);
  });

  it("falls back to one hour for tokens that are not JWTs; an issuer 5xx is a retryable error, not retried here", async () => {
    const { tokens, sent, advance } = setup(async (n) =>
      n === 1
        ? { status: 503, text: "busy" }
        : { status: 200, text: JSON.stringify({ access_token: `opaque-${n}` }) },
    );
    const busy = await tokens.getToken().catch((caught: unknown) => caught);
    expect(busy).toBeInstanceOf(HttpStatusError);
    expect((busy as HttpStatusError).retryable).toBe(true);
    expect(sent).toHaveLength(1);
    expect(await tokens.getToken()).toBe("opaque-2");
    advance(3_000_000);
    expect(await tokens.getToken()).toBe("opaque-2");
    advance(600_000);
    expect(await tokens.getToken()).toBe("opaque-3");
    expect(sent).toHaveLength(3);
  });

  it("fails with AuthError on refused credentials without showing the secret", async () => {
    const { tokens } = setup(async () => ({ status: 401, text: '{"error":"invalid_client"}' }));
    const error = await tokens.getToken().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AuthError);
    expect(String(error)).not.toContain("s3cret-value");
  });
});
