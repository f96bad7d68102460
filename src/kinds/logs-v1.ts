// The deprecated v1 logs API: one request over the whole window (a date-math `time_range`), a single
// scope value instead of lists, and `caas` for containers.
import { v1HitArray } from "../api/hit-arrays.js";
import { v1BatchExport } from "../api/paging/batch-exports.js";
import { pageThrough } from "../api/paging/pager.js";
import { v1Scroll } from "../api/paging/scroll.js";
import { LOG_APPLICATIONS, V1_APP_TYPES } from "../api/wire/common.js";
import { createBatchSource } from "./batch-source.js";
import { createPagedSource } from "./paged-source.js";
import type { KindSources } from "./data-kind.js";
import { oneOf } from "./source-spec.js";
import type { SourceSpec } from "./source-spec.js";

/** The fields v1 scroll and batch share; v1 takes date-math only, so the window is one request. */
function v1Body(operation: string, source: SourceSpec) {
  const appType = source.app_type[0];
  return {
    application: oneOf(operation, "application", LOG_APPLICATIONS, source.application),
    time_range: source.window.expression.start,
    ...(appType !== undefined ? { app_type: oneOf(operation, "app_type", V1_APP_TYPES, appType) } : {}),
    ...(source.domain?.[0] !== undefined ? { domain: source.domain[0] } : {}),
    ...(source.log_group?.[0] !== undefined ? { log_group: source.log_group[0] } : {}),
    ...(source.tenant?.[0] !== undefined ? { tenant: source.tenant[0] } : {}),
    ...(source.stage?.[0] !== undefined ? { stage: source.stage[0] } : {}),
  };
}

export const v1LogsSources: KindSources = {
  scroll: (source, { client }) =>
    createPagedSource(function* (ctx) {
      const body = { ...v1Body("/v1/logs/scroll", source), size: source.page_size };
      yield pageThrough(client, v1Scroll(body), v1HitArray("logs"), {
        signal: ctx.signal,
        reader: ctx.records?.reader,
      });
    }),
  batch: (source, { client, batch }) =>
    createBatchSource(
      {
        pageSize: source.page_size,
        queries: () => [v1BatchExport("/v1/logs/batch", v1Body("/v1/logs/batch", source), "log_count")],
      },
      client,
      batch,
    ),
};
