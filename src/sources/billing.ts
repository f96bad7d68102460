// The billing source: the v1 billing summary, one query and one row per domain.
import type { ServiceClient } from "../api/client.js";
import type { RequestOf } from "../api/service-call.js";
import type { Batch, Source } from "../pipeline/contracts.js";
import type { SourceQuery } from "./source-query.js";

export function createBillingSource(query: SourceQuery, client: ServiceClient): Source {
  return async function* (ctx): AsyncGenerator<Batch> {
    const domains = query.domain ?? [];
    for (const domain of domains) {
      const body = { domain, time_range: query.window.expression.start } as RequestOf<"/v1/query">;
      const response = await client.call("/v1/query", body, { signal: ctx.signal });
      yield [{ ...response.summary }];
    }
    ctx.stats.expected = domains.length;
  };
}
