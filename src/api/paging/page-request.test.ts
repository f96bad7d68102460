import { describe, expect, it } from "vitest";
import { PagingContextLostError } from "../../errors.js";
import { createServiceClient } from "../client.js";
import type { ServiceClient } from "../client.js";
import { HttpStatusError } from "../http-status-error.js";
import { pointInTimePaging } from "./point-in-time.js";
import { requestPage } from "./page-request.js";

const initial = {
  application: "atr" as const,
  start_time: "2026-01-01T00:00:00Z",
  end_time: "2026-01-02T00:00:00Z",
  app_type: ["ec2" as const],
  domain: ["*"],
  size: 400,
};

/** A client whose service answers 413 above `limit` records per page, from a list of 1000 hits. */
function clientWithPayloadLimit(limit: number): { client: ServiceClient; sizes: number[] } {
  const base = createServiceClient({
    baseUrl: "http://unused",
    authUrl: "http://unused",
    clientId: "c",
    clientSecret: "s",
  });
  const sizes: number[] = [];
  const all = Array.from({ length: 1000 }, (_, i) => ({
    _index: "jobs",
    _id: `j${i}`,
    _score: null,
    _source: {},
    sort: [i],
  }));
  const call: ServiceClient["call"] = async (path, body, options) => {
    const request = body as { size?: number; search_after?: number[] };
    const size = request.size ?? 100;
    sizes.push(size);
    if (size > limit) throw new HttpStatusError(path, 413, "payload too large", { retryable: false });
    const from = request.search_after === undefined ? 0 : (request.search_after[0] ?? 0) + 1;
    const hits = all.slice(from, from + size);
    const last = hits.at(-1);
    const more = last !== undefined && from + size < all.length;
    // As the real client does when given a consumer: hits handed on, the response's array empty.
    await options?.onHits?.({ offset: 0, hits, sources: hits.map(() => undefined) });
    return {
      data: { hits: options?.onHits === undefined ? hits : [], total: all.length, count: hits.length },
      meta: {
        trace_id: "t",
        rate_limit: { daily_remaining: 10 },
        pagination: { pit_id: more ? "pit" : null, search_after: more ? last.sort : null },
      },
    } as never;
  };
  return { client: { ...base, call }, sizes };
}

describe("413 halving", () => {
  it("halves size until the page fits, keeps the cursor, and keeps the smaller size", async () => {
    const { client, sizes } = clientWithPayloadLimit(120);
    const ids: string[] = [];
    for await (const page of pointInTimePaging(client, "/v3/jobs/query", initial))
      ids.push(...page.hits.map((h) => h._id));
    expect(ids).toEqual(Array.from({ length: 1000 }, (_, i) => `j${i}`));
    expect(sizes.slice(0, 4)).toEqual([400, 200, 100, 100]);
    expect(new Set(sizes.slice(2))).toEqual(new Set([100]));
  });

  it("gives up at the floor with an error that suggests fields or batch", async () => {
    const { client } = clientWithPayloadLimit(0);
    const run = requestPage(client, "/v3/jobs/query", initial, {
      isContinuation: false,
      halving: { minSize: 10 },
    });
    await expect(run).rejects.toMatchObject({ code: "PAYLOAD_TOO_LARGE", status: 413 });
    await expect(run).rejects.toThrow(/`fields`.*batch/);
  });

  it("turns a 404 on a continuation request into PagingContextLostError", async () => {
    const base = createServiceClient({
      baseUrl: "http://unused",
      authUrl: "http://unused",
      clientId: "c",
      clientSecret: "s",
    });
    const call: ServiceClient["call"] = async (path) => {
      throw new HttpStatusError(path, 404, "search context not found", { retryable: false });
    };
    const run = requestPage(
      { ...base, call },
      "/v3/jobs/query",
      { pit_id: "p", search_after: [1] },
      { isContinuation: true },
    );
    await expect(run).rejects.toBeInstanceOf(PagingContextLostError);
  });
});
