// The scroll source: v2 logs and workloads scroll (one scroll per app_type), the deprecated v1 logs
// scroll, and the v3 metrics scroll. Reports the service's total as the slice's expected count.
import type { ServiceClient } from "../api/client.js";
import type { RequestOf } from "../api/service-call.js";
import { metricsScrollPaging } from "../api/paging/metrics-scroll.js";
import { v1ScrollPaging } from "../api/paging/v1-scroll.js";
import { v2ScrollPaging } from "../api/paging/v2-scroll.js";
import type { V2ScrollQuery } from "../api/paging/v2-scroll.js";
import type { Batch, Source } from "../pipeline/contracts.js";
import { hitsToRows, queryOptions, scopeOf, timeBounds, v3QueryBody } from "./source-query.js";
import type { SourceQuery } from "./source-query.js";

export function createScrollSource(query: SourceQuery, client: ServiceClient): Source {
  if (query.kind === "metrics") return metricsScrollSource(query, client);
  if (query.kind === "logs" && query.api === "v1") return v1ScrollSource(query, client);
  return v2ScrollSource(query, client);
}

function v2ScrollSource(query: SourceQuery, client: ServiceClient): Source {
  return async function* (ctx): AsyncGenerator<Batch> {
    let expected: number | undefined = 0;
    for (const appType of query.app_type) {
      const base = {
        application: query.application ?? "atr",
        app_type: appType,
        ...scopeOf(query),
        ...timeBounds(ctx.slice),
        size: query.page_size,
        ...queryOptions(query),
      };
      const target = (
        query.kind === "workloads" ? { kind: "workloads", body: base } : { kind: "logs", body: base }
      ) as V2ScrollQuery;
      let total: number | undefined;
      for await (const page of v2ScrollPaging(client, target, { signal: ctx.signal })) {
        if (page.pageNumber === 1) total = page.total;
        ctx.log.debug({ page: page.pageNumber, hits: page.hits.length }, "Page received.");
        if (page.hits.length > 0) yield hitsToRows(page.hits);
      }
      expected = expected === undefined || total === undefined ? undefined : expected + total;
    }
    if (expected !== undefined) ctx.stats.expected = expected;
  };
}

function v1ScrollSource(query: SourceQuery, client: ServiceClient): Source {
  return async function* (ctx): AsyncGenerator<Batch> {
    const scope = {
      ...(query.domain?.[0] !== undefined ? { domain: query.domain[0] } : {}),
      ...(query.log_group?.[0] !== undefined ? { log_group: query.log_group[0] } : {}),
      ...(query.tenant?.[0] !== undefined ? { tenant: query.tenant[0] } : {}),
      ...(query.stage?.[0] !== undefined ? { stage: query.stage[0] } : {}),
    };
    const body = {
      application: query.application ?? "atr",
      // v1 takes date-math only, so the whole window is one slice named by its expression.
      time_range: query.window.expression.start,
      ...(query.app_type[0] !== undefined ? { app_type: query.app_type[0] } : {}),
      ...scope,
      size: query.page_size,
      // config/ checked application and app_type against the same rules; the client checks again.
    } as RequestOf<"/v1/logs/scroll">;
    for await (const page of v1ScrollPaging(client, body, { signal: ctx.signal })) {
      ctx.log.debug({ page: page.pageNumber, hits: page.hits.length }, "Page received.");
      if (page.hits.length > 0) yield hitsToRows(page.hits);
    }
  };
}

function metricsScrollSource(query: SourceQuery, client: ServiceClient): Source {
  return async function* (ctx): AsyncGenerator<Batch> {
    // config/ checked application and app_type against the same rules; the client checks again.
    const body = v3QueryBody(query, ctx.slice) as RequestOf<"/v3/metrics/query">;
    for await (const page of metricsScrollPaging(client, body, { signal: ctx.signal })) {
      if (page.pageNumber === 1 && page.total !== undefined) ctx.stats.expected = page.total;
      ctx.log.debug({ page: page.pageNumber, hits: page.hits.length }, "Page received.");
      if (page.hits.length > 0) yield hitsToRows(page.hits);
    }
  };
}
