// Workloads: compute workloads, served by v2 (scroll, batch export, aggs; one request set per
// app_type) with v3 mappings.
import { v2BatchExport } from "../api/paging/batch-exports.js";
import { v2Scroll } from "../api/paging/scroll.js";
import type { RequestOf } from "../api/service-operation.js";
import { ATR_ONLY, DOMAIN_APP_TYPES } from "../api/wire/common.js";
import { byName } from "./hit-columns.js";
import { v2ScrollKind } from "./v2-scroll-kind.js";

/**
 * The workloads scroll: its answers report the page's count as `data.count` and the query's total as
 * `meta.workloads_available`, and carry a scroll_id only while more results are available.
 */
export const workloadsScroll = (body: RequestOf<"/v2/workloads/scroll">) =>
  v2Scroll("/v2/workloads/scroll", body, (response) => response.meta.workloads_available);

export const workloadsKind = v2ScrollKind({
  type: "workloads",
  summary: "Compute workloads (v2; scroll, batch, aggs).",
  allowed: { applications: ATR_ONLY, appTypes: DOMAIN_APP_TYPES },
  scroll: (body) => workloadsScroll(body),
  batch: (body) => v2BatchExport("/v2/workloads/batch", body, "workload_count"),
  aggs: async (client, body, signal) =>
    (await client.call("/v2/workloads/aggs", body, { signal })).data.aggregations,
  mappings: async (client, source, signal) =>
    byName(
      (await client.call("/v3/workloads/mappings", { includes_eu: source.includes_eu }, { signal })).data
        .fields,
    ),
});
