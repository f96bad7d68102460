// Contract: every paging mechanism, read to its end over HTTP, returns exactly the generator's hits for
// the query (expectedHits), in order, none twice; contexts expire when idle (injected clock).
import { describe, expect } from "vitest";
import type { RunningEmulator } from "../src/emulator/server.js";
import type { OperationPath } from "../src/api/wire/operations.js";
import { manualClock, post, WINDOW } from "./emulator-http.js";
import { tokenFixture, useEmulator } from "./support/use-emulator.js";

const clock = manualClock();
const it = useEmulator(
  { seed: 42, density: 7, clock: clock.now, contextIdleSeconds: 60 },
  { preset: false },
).extend<{ token: string }>({ token: tokenFixture() });

async function expected(
  emulator: RunningEmulator,
  path: OperationPath,
  body: Record<string, unknown>,
): Promise<string[]> {
  const ids: string[] = [];
  for await (const hit of emulator.expectedHits(path, body)) ids.push(hit._id);
  return ids;
}

/** Reads a paging mechanism to its end; returns the ids in order and the number of pages. */
async function readAll(
  emulator: RunningEmulator,
  token: string,
  path: OperationPath,
  first: Record<string, unknown>,
  pick: (body: Record<string, unknown>) => {
    hits: { _id: string }[];
    next: Record<string, unknown> | undefined;
  },
): Promise<{ ids: string[]; pages: number }> {
  const ids: string[] = [];
  let body: Record<string, unknown> | undefined = first;
  let pages = 0;
  while (body) {
    const answer = await post(emulator, path, body, token);
    expect(answer.status, answer.text.slice(0, 300)).toBe(200);
    const page = pick(answer.body);
    ids.push(...page.hits.map((hit) => hit._id));
    body = page.next;
    if (++pages > 500) throw new Error("paging does not end");
  }
  return { ids, pages };
}

type Envelope = { data: Record<string, unknown>; meta: Record<string, unknown> };

describe("paging to the end", () => {
  it("v3 jobs point in time: every hit once, pit_id and search_after null on the last page", async ({
    service,
    token,
  }) => {
    const { emulator } = service;
    const first = { application: "atr", ...WINDOW, app_type: ["ec2", "kubernetes"], domain: ["*"], size: 17 };
    const want = await expected(emulator, "/v3/jobs/query", first);
    const { ids, pages } = await readAll(emulator, token, "/v3/jobs/query", first, (raw) => {
      const { data, meta } = raw as Envelope;
      const pagination = meta["pagination"] as { pit_id: string | null; search_after: unknown[] | null };
      expect(pagination.pit_id === null).toBe(pagination.search_after === null);
      expect(data["total"]).toBe(want.length);
      const next = pagination.pit_id
        ? { pit_id: pagination.pit_id, search_after: pagination.search_after, size: 17 }
        : undefined;
      return { hits: data["hits"] as { _id: string }[], next };
    });
    expect(want.length).toBeGreaterThan(100);
    expect(ids).toEqual(want);
    expect(new Set(ids).size).toBe(ids.length);
    expect(pages).toBe(Math.ceil(want.length / 17));
  });

  it("v3 tickets point in time with filters and fields", async ({ service, token }) => {
    const { emulator } = service;
    const first = {
      application: "atr",
      ...WINDOW,
      app_type: ["kubernetes"],
      domain: ["alpha.example", "zulu.example"],
      filters: [
        { terms: { "ticket.type": ["INCIDENT", "SR_TASK"] } },
        { bool: { must_not: { term: { "ticket.state": "Closed" } } } },
      ],
      fields: ["ticket.number", "ticket.type", "atr.domain_name"],
      size: 5,
    };
    const want = await expected(emulator, "/v3/tickets/query", first);
    const all = await expected(emulator, "/v3/tickets/query", { ...first, filters: undefined });
    expect(want.length).toBeGreaterThan(0);
    expect(want.length).toBeLessThan(all.length);
    const { ids } = await readAll(emulator, token, "/v3/tickets/query", first, (raw) => {
      const { data, meta } = raw as Envelope;
      for (const hit of data["hits"] as { _source: Record<string, Record<string, unknown>> }[]) {
        expect(Object.keys(hit._source).sort()).toEqual(["atr", "ticket"]);
        expect(["INCIDENT", "SR_TASK"]).toContain(hit._source["ticket"]?.["type"]);
      }
      const pagination = meta["pagination"] as { pit_id: string | null; search_after: unknown[] | null };
      const next = pagination.pit_id
        ? { pit_id: pagination.pit_id, search_after: pagination.search_after }
        : undefined;
      return { hits: data["hits"] as { _id: string }[], next: next && { ...next, size: 5 } };
    });
    expect(ids).toEqual(want);
  });

  it("v3 metrics scroll: scroll_id null on the last page", async ({ service, token }) => {
    const { emulator } = service;
    const first = { application: "quasar", ...WINDOW, app_type: ["ec2"], domain: ["*"], size: 33 };
    const want = await expected(emulator, "/v3/metrics/query", first);
    const { ids } = await readAll(emulator, token, "/v3/metrics/query", first, (raw) => {
      const { data, meta } = raw as Envelope;
      const scrollId = (meta["pagination"] as { scroll_id: string | null }).scroll_id;
      return {
        hits: data["hits"] as { _id: string }[],
        next: scrollId ? { scroll_id: scrollId } : undefined,
      };
    });
    expect(ids).toEqual(want);
  });

  it("v2 logs scroll (domain scope): data.count is all matches, scroll_id absent at the end", async ({
    service,
    token,
  }) => {
    const { emulator } = service;
    const first = {
      application: "klewer",
      ...WINDOW,
      app_type: "kubernetes",
      domain: ["bravo.example"],
      size: 9,
    };
    const want = await expected(emulator, "/v2/logs/scroll", first);
    const { ids } = await readAll(emulator, token, "/v2/logs/scroll", first, (raw) => {
      const { data, meta } = raw as Envelope;
      expect(data["count"]).toBe(want.length);
      expect(meta["api_version"]).toBe("v2");
      const scrollId = meta["scroll_id"] as string | undefined;
      return {
        hits: data["logs"] as { _id: string }[],
        next: scrollId ? { scroll_id: scrollId } : undefined,
      };
    });
    expect(ids).toEqual(want);
  });

  it("v2 logs scroll (serverless scope)", async ({ service, token }) => {
    const { emulator } = service;
    const first = {
      application: "eventops",
      ...WINDOW,
      app_type: "serverless",
      log_group: ["*"],
      tenant: ["acme"],
      stage: ["prod"],
      size: 8,
    };
    const want = await expected(emulator, "/v2/logs/scroll", first);
    expect(want.length).toBeGreaterThan(0);
    const { ids } = await readAll(emulator, token, "/v2/logs/scroll", first, (raw) => {
      const { data, meta } = raw as Envelope;
      const scrollId = meta["scroll_id"] as string | undefined;
      return {
        hits: data["logs"] as { _id: string }[],
        next: scrollId ? { scroll_id: scrollId } : undefined,
      };
    });
    expect(ids).toEqual(want);
  });

  it("v2 workloads scroll: data.count is this page, workloads_available the total", async ({
    service,
    token,
  }) => {
    const { emulator } = service;
    const first = { application: "atr", ...WINDOW, app_type: "ec2", domain: ["*"], size: 10 };
    const want = await expected(emulator, "/v2/workloads/scroll", first);
    const { ids } = await readAll(emulator, token, "/v2/workloads/scroll", first, (raw) => {
      const { data, meta } = raw as Envelope;
      expect(data["count"]).toBe((data["workloads"] as unknown[]).length);
      expect(meta["workloads_available"]).toBe(want.length);
      expect(meta["domain"]).toEqual(["alpha.example", "bravo.example", "charlie.example"]);
      const scrollId = meta["scroll_id"] as string | undefined;
      return {
        hits: data["workloads"] as { _id: string }[],
        next: scrollId ? { scroll_id: scrollId } : undefined,
      };
    });
    expect(ids).toEqual(want);
  });

  it("v1 logs scroll: has_more false on the last page", async ({ service, token }) => {
    const { emulator } = service;
    const first = {
      application: "atr",
      time_range: "now-1d/d",
      app_type: "ec2",
      domain: "alpha.example",
      size: 50,
    };
    const want = await expected(emulator, "/v1/logs/scroll", first);
    const { ids } = await readAll(emulator, token, "/v1/logs/scroll", first, (raw) => {
      const body = raw as {
        logs: { _id: string }[];
        has_more: boolean;
        scroll_id: string;
        daily_requests_remaining: number;
      };
      expect(typeof body.daily_requests_remaining).toBe("number");
      return { hits: body.logs, next: body.has_more ? { ...first, scroll_id: body.scroll_id } : undefined };
    });
    expect(want.length).toBeGreaterThan(50);
    expect(ids).toEqual(want);
  });
});

describe("paging contexts", () => {
  it("are gone after the idle limit (404), and kept while used", async ({ service, token }) => {
    const { emulator } = service;
    const first = { application: "atr", ...WINDOW, app_type: "ec2", domain: ["*"], size: 5 };
    const one = await post(emulator, "/v2/logs/scroll", first, token);
    const scrollId = (one.body["meta"] as { scroll_id: string }).scroll_id;
    clock.advance(59_000);
    expect((await post(emulator, "/v2/logs/scroll", { scroll_id: scrollId }, token)).status).toBe(200);
    clock.advance(61_000);
    const lost = await post(emulator, "/v2/logs/scroll", { scroll_id: scrollId }, token);
    expect(lost.status).toBe(404);
    expect(lost.body["error"]).toBe("context_not_found");
  });

  it("an unknown point in time is 404", async ({ service, token }) => {
    const { emulator } = service;
    const answer = await post(
      emulator,
      "/v3/jobs/query",
      { pit_id: "pit_nope", search_after: [1, 2] },
      token,
    );
    expect(answer.status).toBe(404);
  });
});
