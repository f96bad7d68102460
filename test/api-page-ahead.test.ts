// Point-in-time paging asks for the next page as soon as the current page's body is in, with the
// cursor read from the body's end, while the current page's hits are still being read. Against real
// HTTP servers written here: the early request goes out before the reader is done, at most one page is
// asked for ahead, and an early request that is not the one the parsed envelope asks for is let go,
// never read.
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";
import { V3_HITS } from "../src/api/hit-arrays.js";
import type { HitBytesReader } from "../src/core/hit-reader.js";
import { pageThrough } from "../src/api/paging/pager.js";
import { pointInTime } from "../src/api/paging/point-in-time.js";
import type { RequestOf } from "../src/api/service-operation.js";
import {
  JOBS_BODY as HOSTILE_JOBS_BODY,
  answerToken,
  startHostileService,
} from "./support/hostile-service.js";
import type { HostileService } from "./support/hostile-service.js";

const services: HostileService[] = [];
afterEach(async () => {
  for (const service of services.splice(0)) await service.close();
});

const JOBS_BODY: RequestOf<"/v3/jobs/query"> = { ...HOSTILE_JOBS_BODY, size: 2500 };

const PAGES = 4;
const PAGE_HITS = 2500;

function hit(page: number, k: number): Record<string, unknown> {
  const position = page * PAGE_HITS + k;
  return {
    _index: "jobs-2026.11.20",
    _id: `job-${position}`,
    _score: null,
    _source: { job_id: `job-${position}`, state: "done", cpu: k / 7 },
    sort: [1_763_596_800_000, position],
  };
}

function pageBody(page: number, pitId: string, broken = false): string {
  const hits = Array.from({ length: PAGE_HITS }, (_, k) => hit(page, k));
  const last = page === PAGES - 1;
  let text = JSON.stringify({
    data: { hits, total: PAGES * PAGE_HITS, count: hits.length },
    meta: {
      trace_id: `t${page}`,
      rate_limit: { daily_remaining: 1000 },
      pagination: last
        ? { pit_id: null, search_after: null }
        : { pit_id: pitId, search_after: [1_763_596_800_000, (page + 1) * PAGE_HITS - 1] },
    },
  });
  // A body cut in its hits but whole at its end: its envelope can be read early, its hits cannot.
  if (broken) text = text.replace('"_id":"job-2400"', '"_id":job-2400"');
  return text;
}

/** The page a request asks for: the first, or the one after its search_after. */
function pageAsked(body: string): number {
  const request = JSON.parse(body) as { search_after?: [number, number] };
  return request.search_after === undefined ? 0 : (request.search_after[1] + 1) / PAGE_HITS;
}

interface Served {
  service: HostileService;
  /** Each request as it came: the page asked, its pit id, and when (ms since the first). */
  requests: { page: number; pitId: string | undefined; at: number }[];
  /** Most page requests open at once. */
  mostOpen: () => number;
  /** Page requests open now (their connection not yet closed). */
  open: () => number;
}

async function serve(
  answer: (page: number, attempt: number, pitId: string | undefined) => string,
): Promise<Served> {
  const requests: Served["requests"] = [];
  const attempts = new Map<number, number>();
  let open = 0;
  let most = 0;
  const started = Date.now();
  const service = await startHostileService(async ({ path, body }, res) => {
    if (path === "/oauth2/token") return answerToken(res);
    const page = pageAsked(body);
    const pitId = (JSON.parse(body) as { pit_id?: string }).pit_id;
    requests.push({ page, pitId, at: Date.now() - started });
    const attempt = (attempts.get(page) ?? 0) + 1;
    attempts.set(page, attempt);
    open += 1;
    most = Math.max(most, open);
    res.on("close", () => (open -= 1));
    await sleep(30);
    res.writeHead(200, { "content-type": "application/json" });
    res.end(answer(page, attempt, pitId));
  });
  services.push(service);
  return { service, requests, mostOpen: () => most, open: () => open };
}

describe("point in time: the next page is asked for while the current one is read", () => {
  it("sends the next request before the reader has taken the current page, one page ahead at most", async () => {
    const served = await serve((page) => pageBody(page, "pit-1"));
    const client = served.service.client();
    const ids: string[] = [];
    const asked: number[] = [];
    for await (const part of pageThrough(client, pointInTime("/v3/jobs/query", JOBS_BODY), V3_HITS)) {
      if (part.type !== "hits") continue;
      // A slow reader: after the first batch of each page, wait until the next page has been asked for.
      if (part.hits.length > 0 && ids.length % PAGE_HITS === 0) {
        const page = ids.length / PAGE_HITS;
        if (page < PAGES - 1) {
          for (let wait = 0; wait < 200 && !served.requests.some((r) => r.page === page + 1); wait++)
            await sleep(10);
          asked.push(served.requests.filter((r) => r.page === page + 1).length);
        }
      }
      ids.push(...part.hits.map((h) => h._id));
    }
    // Each next page was asked for while its page's first batch was still being read.
    expect(asked).toEqual([1, 1, 1]);
    expect(ids).toEqual(Array.from({ length: PAGES * PAGE_HITS }, (_, k) => `job-${k}`));
    expect(served.requests.map((r) => r.page)).toEqual([0, 1, 2, 3]);
    expect(served.mostOpen()).toBeLessThanOrEqual(2);
  });

  it("decodes nothing of the page asked for ahead before it is the page being read", async () => {
    const served = await serve((page) => pageBody(page, "pit-1"));
    const client = served.service.client();
    // A reader that declines every hit (so each is parsed as usual) and notes the pages it was shown.
    const shown = new Set<number>();
    const reader: HitBytesReader = {
      read(bytes, start, end) {
        const id = /"_id":"job-(\d+)"/.exec(
          Buffer.from(bytes.subarray(start, Math.min(end, start + 80))).toString(),
        );
        if (id !== null) shown.add(Math.floor(Number(id[1]) / PAGE_HITS));
        return undefined;
      },
    };
    let checked = false;
    let ids = 0;
    for await (const part of pageThrough(client, pointInTime("/v3/jobs/query", JOBS_BODY), V3_HITS, {
      reader,
    })) {
      if (part.type !== "hits") continue;
      ids += part.hits.length;
      if (!checked) {
        checked = true;
        for (let wait = 0; wait < 200 && !served.requests.some((r) => r.page === 1); wait++) await sleep(10);
        // Its answer has long come in; none of its hits has been decoded.
        await sleep(150);
        expect(served.requests.map((r) => r.page)).toEqual([0, 1]);
        expect([...shown]).toEqual([0]);
      }
    }
    expect(ids).toBe(PAGES * PAGE_HITS);
    expect([...shown].sort()).toEqual([0, 1, 2, 3]);
  });

  it("lets an early request go when the envelope parsed says otherwise, and reads the right page", async () => {
    // The first answer to page 0 is cut in its hits (sent again) and names a pit id the second answer
    // does not: the page asked for early from the first answer's end is not the one to read.
    const served = await serve((page, attempt) =>
      page === 0 && attempt === 1 ? pageBody(0, "pit-stale", true) : pageBody(page, "pit-1"),
    );
    const client = served.service.client();
    const ids: string[] = [];
    for await (const part of pageThrough(client, pointInTime("/v3/jobs/query", JOBS_BODY), V3_HITS)) {
      if (part.type !== "hits") continue;
      ids.push(...part.hits.map((h) => h._id));
      // Before the reader reaches the cut (hit 2400), the early request under the stale id goes out.
      if (ids.length === 2000)
        for (let wait = 0; wait < 200 && !served.requests.some((r) => r.pitId === "pit-stale"); wait++)
          await sleep(10);
    }
    expect(ids).toEqual(Array.from({ length: PAGES * PAGE_HITS }, (_, k) => `job-${k}`));
    // Page 0 was asked twice; every page after it was read through the pit id of the answer that
    // was read; the early request under the stale id went out and was not followed.
    expect(served.requests.filter((r) => r.page === 0)).toHaveLength(2);
    const followed = served.requests.filter((r) => r.page > 0 && r.pitId === "pit-1").map((r) => r.page);
    expect(followed).toEqual([1, 2, 3]);
    const stale = served.requests.filter((r) => r.pitId === "pit-stale").map((r) => r.page);
    expect(stale).toEqual([1]);
  });

  it("lets the page asked ahead go when the reader stops", async () => {
    const served = await serve((page) => pageBody(page, "pit-1"));
    const client = served.service.client();
    for await (const part of pageThrough(client, pointInTime("/v3/jobs/query", JOBS_BODY), V3_HITS)) {
      if (part.type !== "hits") continue;
      for (let wait = 0; wait < 200 && served.requests.length < 2; wait++) await sleep(10);
      break;
    }
    await sleep(100);
    expect(served.requests.map((r) => r.page)).toEqual([0, 1]);
    // Both requests are closed: nothing is left reading after the reader has gone.
    for (let wait = 0; wait < 200 && served.open() > 0; wait++) await sleep(10);
    expect(served.open()).toBe(0);
  });
});
