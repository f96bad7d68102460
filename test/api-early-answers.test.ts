// A request sent early (`client.sendEarly`) is the first attempt of the identical call made later: one
// request on the wire, its hits read as the call's own, its quota slot given back when the call ends.
// One no call takes is dropped with its slot; a call that differs by a byte sends its own.
import { afterAll, beforeAll, expect, it } from "vitest";
import { startEmulator } from "../src/emulator/server.js";
import type { RunningEmulator } from "../src/emulator/server.js";
import { createServiceClient } from "../src/api/client.js";
import type { ServiceClient } from "../src/api/client.js";
import { pointInTimePaging } from "../src/api/paging/point-in-time.js";
import { V3_HITS } from "../src/api/paging/hit-array.js";
import type { RequestOf } from "../src/api/service-operation.js";

const QUERY = "/v3/jobs/query";
const BODY: RequestOf<typeof QUERY> = {
  application: "atr",
  app_type: ["ec2"],
  domain: ["*"],
  start_time: "2026-11-20T00:00:00Z",
  end_time: "2026-11-20T04:00:00Z",
  size: 100,
};

let emulator: RunningEmulator;
let client: ServiceClient;

beforeAll(async () => {
  emulator = await startEmulator({ seed: 5, density: 40 });
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

/** Reads every page of `body` and returns the hit ids and the requests the emulator received meanwhile. */
async function readAll(body: RequestOf<typeof QUERY>): Promise<{ ids: string[]; requests: number }> {
  const before = emulator.requestCount(QUERY);
  const ids: string[] = [];
  for await (const part of pointInTimePaging(client, QUERY, body, V3_HITS))
    if (part.type === "hits") ids.push(...part.hits.map((hit) => hit._id));
  return { ids, requests: emulator.requestCount(QUERY) - before };
}

it("answers the identical call with the request sent early: the same hits, no request more", async () => {
  const plain = await readAll(BODY);
  expect(plain.ids.length).toBeGreaterThan(100);
  const before = emulator.requestCount(QUERY);
  expect(client.sendEarly(QUERY, BODY)).toBe(true);
  expect(client.quota.snapshot().inFlight).toBe(1);
  // The same request again is not sent twice.
  expect(client.sendEarly(QUERY, { ...BODY })).toBe(false);
  const early = await readAll({ ...BODY });
  expect(early.ids).toEqual(plain.ids);
  expect(emulator.requestCount(QUERY) - before).toBe(plain.requests);
  expect(client.quota.snapshot().inFlight).toBe(0);
});

it("leaves an early request to a call that differs by a byte, and drops it with its quota slot", async () => {
  const other = { ...BODY, size: 99 };
  const plain = await readAll(other);
  const before = emulator.requestCount(QUERY);
  expect(client.sendEarly(QUERY, BODY)).toBe(true);
  const read = await readAll(other);
  expect(read.ids).toEqual(plain.ids);
  // Its own pages, and the early request, which nothing read.
  expect(emulator.requestCount(QUERY) - before).toBe(plain.requests + 1);
  expect(client.quota.snapshot().inFlight).toBe(1);
  expect(client.dropEarly()).toBe(1);
  expect(client.quota.snapshot().inFlight).toBe(0);
  expect(client.dropEarly()).toBe(0);
  // Dropped, it answers no later call: the identical call sends its own.
  const again = await readAll(BODY);
  expect(again.requests).toBeGreaterThan(0);
  expect(emulator.requestCount(QUERY) - before).toBe(plain.requests + 1 + again.requests);
});

it("cancels the early request of a call whose signal is aborted", async () => {
  expect(client.sendEarly(QUERY, BODY)).toBe(true);
  const stop = new AbortController();
  stop.abort(new Error("stopped by the test"));
  const pages = pointInTimePaging(client, QUERY, BODY, V3_HITS, { signal: stop.signal });
  await expect(pages.next()).rejects.toThrow(/stopped by the test/);
  expect(client.quota.snapshot().inFlight).toBe(0);
});
