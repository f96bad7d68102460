// Test helpers for the emulator contract tests: a token, and JSON POSTs over real HTTP (undici).
import { request } from "undici";
import type { RunningEmulator } from "../src/emulator/server.js";

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Record<string, unknown>;
  text: string;
}

export async function fetchToken(
  emulator: RunningEmulator,
  clientId = emulator.clientId,
  secret = emulator.clientSecret,
): Promise<string> {
  const form = new URLSearchParams({
    grant_type: "client_credentials",
    client_id: clientId,
    client_secret: secret,
  });
  const response = await request(`${emulator.url}/oauth2/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: form.toString(),
  });
  const body = (await response.body.json()) as { access_token?: string };
  if (response.statusCode !== 200 || !body.access_token)
    throw new Error(`token request failed: ${response.statusCode}`);
  return body.access_token;
}

export async function post(
  emulator: RunningEmulator,
  path: string,
  body: unknown,
  token: string | undefined,
): Promise<Answer> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (token !== undefined) headers["authorization"] = `Bearer ${token}`;
  const response = await request(`${emulator.url}${path}`, {
    method: "POST",
    headers,
    body: body === undefined ? "" : JSON.stringify(body),
  });
  const text = await response.body.text();
  let parsed: Record<string, unknown> = {};
  try {
    parsed = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    parsed = {};
  }
  return { status: response.statusCode, headers: response.headers, body: parsed, text };
}

/** A clock tests move by hand. */
export function manualClock(start = Date.parse("2026-03-10T12:00:00Z")): {
  now: () => number;
  advance(ms: number): void;
} {
  let now = start;
  return { now: () => now, advance: (ms) => void (now += ms) };
}

export const WINDOW = { start_time: "2026-03-01T00:00:00Z", end_time: "2026-03-01T06:30:00Z" };
