// The batch source: an asynchronous batch export (v2 logs, v2 workloads, deprecated v1 logs) polled
// until its partitions can be downloaded. The batch token is handed to the caller so a rerun within
// the token's lifetime downloads the same export instead of asking for (and paying for) a new one.
import type { ServiceClient } from "../api/client.js";
import { batchExport } from "../api/paging/batch-export.js";
import type { BatchExportQuery } from "../api/paging/batch-export.js";
import type { Batch, Row, Source } from "../pipeline/contracts.js";
import { hitToRow, queryOptions, scopeOf, timeBounds } from "./source-query.js";
import type { SourceQuery } from "./source-query.js";

export interface BatchResume {
  /** A token from an earlier attempt or run at this slice, still within its lifetime. */
  token?: string | undefined;
  onToken(token: string): Promise<void>;
}

export interface BatchSourceOptions {
  resume?: BatchResume | undefined;
  /** Partitions downloaded at once. */
  concurrency?: number;
  pollDeadlineMs?: number;
}

/** Partition files carry hits; a file of bare documents is read as their `_source`. */
function recordToRow(record: Readonly<Record<string, unknown>>): Row {
  const source = record._source;
  if (source !== null && typeof source === "object" && typeof record._id === "string") {
    return hitToRow({
      _id: record._id,
      _index: typeof record._index === "string" ? record._index : "",
      _source: source as Record<string, unknown>,
    });
  }
  return record;
}

function queriesOf(query: SourceQuery, start_time: string, end_time: string): BatchExportQuery[] {
  if (query.kind === "logs" && query.api === "v1") {
    const body = {
      application: query.application ?? "atr",
      time_range: query.window.expression.start,
      ...(query.app_type[0] !== undefined ? { app_type: query.app_type[0] } : {}),
      ...(query.domain?.[0] !== undefined ? { domain: query.domain[0] } : {}),
      ...(query.log_group?.[0] !== undefined ? { log_group: query.log_group[0] } : {}),
      ...(query.tenant?.[0] !== undefined ? { tenant: query.tenant[0] } : {}),
      ...(query.stage?.[0] !== undefined ? { stage: query.stage[0] } : {}),
    };
    return [{ kind: "v1-logs", body } as BatchExportQuery];
  }
  return query.app_type.map((appType) => {
    const body = {
      application: query.application ?? "atr",
      app_type: appType,
      ...scopeOf(query),
      start_time,
      end_time,
      ...queryOptions(query),
    };
    // config/ checked application and app_type against the same rules; the client checks again.
    return (
      query.kind === "workloads" ? { kind: "v2-workloads", body } : { kind: "v2-logs", body }
    ) as BatchExportQuery;
  });
}

export function createBatchSource(
  query: SourceQuery,
  client: ServiceClient,
  options: BatchSourceOptions = {},
): Source {
  return async function* (ctx): AsyncGenerator<Batch> {
    const { start_time, end_time } = timeBounds(ctx.slice);
    const queries = queriesOf(query, start_time, end_time);
    let expected: number | undefined = 0;
    for (const [index, batchQuery] of queries.entries()) {
      // Only a single-request slice can resume a token: one token per slice is what the state keeps.
      const resumeToken = queries.length === 1 ? options.resume?.token : undefined;
      for await (const page of batchExport(client, batchQuery, {
        signal: ctx.signal,
        ...(resumeToken !== undefined ? { resumeToken } : {}),
        onToken: async (token) => {
          if (queries.length === 1) await options.resume?.onToken(token);
        },
        ...(options.concurrency !== undefined ? { concurrency: options.concurrency } : {}),
        ...(options.pollDeadlineMs !== undefined ? { pollDeadlineMs: options.pollDeadlineMs } : {}),
        pageSize: query.page_size,
      })) {
        if (page.hits.length > 0) yield page.hits.map(recordToRow);
        if (page.partitionDone) {
          const count = page.partition.expected;
          expected = expected === undefined || count === undefined ? undefined : expected + count;
          ctx.log.debug({ request: index, partition: page.partition.id }, "Batch partition downloaded.");
        }
      }
    }
    if (expected !== undefined) ctx.stats.expected = expected;
  };
}
