// Paging of /v3/metrics/query: follow `meta.pagination.scroll_id` until it is null (no cleanup needed).
import type { ServiceClient } from "../client.js";
import type { RequestOf } from "../service-call.js";
import type { V3Hit } from "../wire/hits.js";
import type { Page, V3PagingOptions } from "./page.js";
import { streamPage } from "./page-stream.js";
import { PagingGuard } from "./paging-guard.js";

/**
 * Pages a metrics query to its end, halving `size` on 413 and keeping the same scroll. Throws
 * PagingContextLostError when the scroll is gone.
 * @example
 * for await (const page of metricsScrollPaging(client, { application: "atr", app_type: ["ec2"], domain: ["*"], start_time, end_time })) write(page.hits);
 */
export async function* metricsScrollPaging(
  client: ServiceClient,
  body: RequestOf<"/v3/metrics/query">,
  options: V3PagingOptions = {},
): AsyncGenerator<Page<V3Hit>> {
  const halving = { minSize: options.minSize ?? 1 };
  let request: RequestOf<"/v3/metrics/query"> = body;
  let isContinuation = false;
  const guard = new PagingGuard("/v3/metrics/query");
  for (let pageNumber = 1; ; pageNumber += 1) {
    const { response, size, count, first, last } = yield* streamPage<"/v3/metrics/query", V3Hit>(
      client,
      "/v3/metrics/query",
      request,
      { signal: options.signal, isContinuation, movesCursor: true, halving },
      pageNumber,
    );
    guard.page({ count, first, last, total: response.data.total, size });
    // The total comes in the envelope, after the hits.
    yield { hits: [], total: response.data.total, pageNumber };
    const scrollId = response.meta.pagination.scroll_id;
    if (scrollId === null || scrollId === "" || count === 0) return;
    request = { scroll_id: scrollId };
    if (size !== undefined) request.size = size;
    if (body.fields !== undefined) request.fields = body.fields;
    isContinuation = true;
  }
}
