import { describe, expect, it } from "vitest";
import { PagingContextLostError } from "../../errors.js";
import { createServiceClient } from "../client.js";
import type { ServiceClient } from "../client.js";
import { HttpStatusError } from "../http-status-error.js";
import { V3_HITS } from "../hit-arrays.js";
import { pageThrough } from "./pager.js";
import { pointInTime } from "./point-in-time.js";
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
  const stream: ServiceClient["stream"] = async function* (path, body) {
    const request = body as { size?: number; search_after?: number[] };
    const size = request.size ?? 100;
    sizes.push(size);
    if (size > limit) throw new HttpStatusError(path, 413, "payload too large", { retryable: false });
    const from = request.search_after === undefined ? 0 : (request.search_after[0] ?? 0) + 1;
    const hits = all.slice(from, from + size);
    const last = hits.at(-1);
    const more = last !== undefined && from + size < all.length;
    // As the real client does: hits yielded as they stream in, the response's array empty.
    yield { offset: 0, hits, sources: hits.map(() => undefined) };
    return {
      data: { hits: [], total: all.length, count: hits.length },
      meta: {
        trace_id: "t",
        rate_limit: { daily_remaining: 10 },
        pagination: { pit_id: more ? "pit" : null, search_after: more ? last.sort : null },
      },
    } as never;
  };
  return { client: { ...base, stream }, sizes };
}

/** Reads a page request to its end, for its outcome. */
async function drain(batches: AsyncIterable<unknown>): Promise<void> {
  for await (const _batch of batches) {
    // Consume.
  }
}

describe("413 halving", () => {
  it("halves size until the page fits, keeps the cursor, and keeps the smaller size", async () => {
    const { client, sizes } = clientWithPayloadLimit(120);
    const ids: string[] = [];
    for await (const part of pageThrough(client, pointInTime("/v3/jobs/query", initial), V3_HITS))
      if (part.type === "hits") ids.push(...part.hits.map((h) => h._id));
    expect(ids).toEqual(Array.from({ length: 1000 }, (_, i) => `j${i}`));
    expect(sizes.slice(0, 4)).toEqual([400, 200, 100, 100]);
    expect(new Set(sizes.slice(2))).toEqual(new Set([100]));
  });

  it("gives up at the floor with an error that suggests fields or batch", async () => {
    const { client } = clientWithPayloadLimit(0);
    const run = drain(
      requestPage(client, "/v3/jobs/query", initial, V3_HITS, {
        isContinuation: false,
        halving: { minSize: 10 },
      }),
    );
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
    const stream: ServiceClient["stream"] = async function* (path) {
      yield* [];
      throw new HttpStatusError(path, 404, "search context not found", { retryable: false });
    };
    const run = drain(
      requestPage({ ...base, stream }, "/v3/jobs/query", { pit_id: "p", search_after: [1] }, V3_HITS, {
        isContinuation: true,
      }),
    );
    await expect(run).rejects.toBeInstanceOf(PagingContextLostError);
  });
});
