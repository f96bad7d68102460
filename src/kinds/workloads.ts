// Workloads: compute workloads, served by v2 (scroll, batch export, aggs; one request set per
// app_type) with v3 mappings.
import { v2HitArray } from "../api/paging/hit-array.js";
import { v2ScrollPaging } from "../api/paging/v2-scroll.js";
import { ATR_ONLY, DOMAIN_APP_TYPES } from "../api/wire/common.js";
import { KIND_FIELDS } from "../api/wire/fields.js";
import { createBatchSource } from "../sources/batch.js";
import { createPagedSource } from "../sources/paged.js";
import type { DataKindComponent } from "./data-kind.js";
import { byName, hitColumns } from "./hit-columns.js";
import { v2Aggs, v2BatchBody, v2Base, v2ScrollBody } from "./v2-requests.js";

const ALLOWED = { applications: ATR_ONLY, appTypes: DOMAIN_APP_TYPES };

export const workloadsKind: DataKindComponent = {
  type: "workloads",
  summary: "Compute workloads (v2; scroll, batch, aggs).",
  apiVersion: () => "v2",
  applications: ATR_ONLY,
  appTypes: () => DOMAIN_APP_TYPES,
  strategies: () => ["auto", "scroll", "batch", "aggs"],
  pagingLimit: 100_000,
  fields: KIND_FIELDS.workloads,
  paging: "scroll",
  sources: () => ({
    scroll: (source, { client }) =>
      createPagedSource(function* (ctx) {
        const operation = "/v2/workloads/scroll";
        for (const appType of source.app_type) {
          const body = v2ScrollBody(operation, ALLOWED, source, appType, ctx.slice);
          yield v2ScrollPaging(client, { kind: "workloads", body }, v2HitArray("workloads"), {
            signal: ctx.signal,
          });
        }
      }),
    batch: (source, { client, batch }) =>
      createBatchSource(
        {
          pageSize: source.page_size,
          queries: (slice) =>
            source.app_type.map((appType) => {
              const operation = "/v2/workloads/batch";
              const body = v2BatchBody(operation, ALLOWED, source, appType, slice);
              return { kind: "v2-workloads", body };
            }),
        },
        client,
        batch,
      ),
  }),
  aggregation: {
    sets: (source) => source.app_type,
    send: async (client, source, request) => {
      const operation = "/v2/workloads/aggs";
      const { aggs, unwrap } = v2Aggs(operation, source, request);
      const body = { ...v2Base(operation, ALLOWED, source, request.appType, request.bounds), aggs };
      return unwrap((await client.call(operation, body, { signal: request.signal })).data.aggregations);
    },
  },
  mappings: async (client, source, signal) =>
    byName(
      (await client.call("/v3/workloads/mappings", { includes_eu: source.includes_eu }, { signal })).data
        .fields,
    ),
  columns: hitColumns,
};
