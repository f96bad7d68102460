// Paging of /v3/metrics/query: follow `meta.pagination.scroll_id` until it is null (no cleanup needed).
import type { ServiceClient } from "../client.js";
import type { RequestOf } from "../service-operation.js";
import type { V3Hit } from "../wire/hits.js";
import type { HitArray } from "../../decoding/hit-array.js";
import { withReader } from "../../decoding/hit-array.js";
import type { PagePart, V3PagingOptions } from "./page.js";
import { streamPage } from "./page-stream.js";
import { PagingGuard } from "./paging-guard.js";

/**
 * Pages a metrics query to its end, halving `size` on 413 and keeping the same scroll. Throws
 * PagingContextLostError when the scroll is gone. `hits` says where the responses keep their hits.
 * @example
 * for await (const part of metricsScrollPaging(client, { application: "atr", app_type: ["ec2"], domain: ["*"], start_time, end_time }, V3_HITS)) if (part.type === "hits") write(part.hits);
 */
export async function* metricsScrollPaging(
  client: ServiceClient,
  body: RequestOf<"/v3/metrics/query">,
  hits: HitArray,
  options: V3PagingOptions = {},
): AsyncGenerator<PagePart<V3Hit>> {
  const halving = { minSize: options.minSize ?? 1 };
  let request: RequestOf<"/v3/metrics/query"> = body;
  let isContinuation = false;
  const guard = new PagingGuard("/v3/metrics/query");
  for (let pageNumber = 1; ; pageNumber += 1) {
    const { response, size, count, first, last } = yield* streamPage<"/v3/metrics/query", V3Hit>(
      client,
      "/v3/metrics/query",
      request,
      withReader(hits, options.reader),
      { signal: options.signal, isContinuation, movesCursor: true, halving },
      pageNumber,
    );
    guard.page({ count, first, last, total: response.data.total, size });
    yield { type: "end", pageNumber, count, total: response.data.total };
    const scrollId = response.meta.pagination.scroll_id;
    if (scrollId === null || scrollId === "" || count === 0) return;
    request = { scroll_id: scrollId };
    if (size !== undefined) request.size = size;
    if (body.fields !== undefined) request.fields = body.fields;
    isContinuation = true;
  }
}
