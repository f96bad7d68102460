// The batch source: an asynchronous batch export (v2 logs, v2 workloads, deprecated v1 logs) polled
// until its partitions can be downloaded. Each partition is a part the runner commits on its own, and
// the batch tokens go to the state, so a rerun within the token's lifetime neither asks for (and pays
// for) a new export nor downloads again the partitions already written.
import type { ServiceClient } from "../api/client.js";
import { awaitBatchReady } from "../api/paging/batch-status.js";
import type { BatchExportQuery } from "../api/paging/batch-status.js";
import { readPartition } from "../api/paging/batch-export.js";
import type { Batch, PartitionedSource, Row, SourcePart } from "../pipeline/contracts.js";
import { hitToRow, queryOptions, scopeOf, timeBounds } from "./source-query.js";
import type { SourceQuery } from "./source-query.js";

export interface BatchResume {
  /** Tokens an earlier attempt or run at this slice obtained, by request number ("0", "1", ...). */
  tokens: Readonly<Record<string, string>>;
  onToken(request: string, token: string): Promise<void>;
}

export interface BatchSourceOptions {
  resume?: BatchResume | undefined;
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
): PartitionedSource {
  return {
    async parts(ctx) {
      const { start_time, end_time } = timeBounds(ctx.slice);
      const parts: SourcePart[] = [];
      for (const [index, batchQuery] of queriesOf(query, start_time, end_time).entries()) {
        const request = String(index);
        const resumeToken = options.resume?.tokens[request];
        const { token, partitions } = await awaitBatchReady(client, batchQuery, {
          signal: ctx.signal,
          ...(resumeToken !== undefined ? { resumeToken } : {}),
          onToken: (fresh) => options.resume?.onToken(request, fresh),
          ...(options.pollDeadlineMs !== undefined ? { pollDeadlineMs: options.pollDeadlineMs } : {}),
        });
        for (const partition of partitions) {
          parts.push({
            // Partitions are time ranges: the same ids come back for a batch requested again.
            id: `${request}:${partition.id}`,
            expected: partition.expected,
            source: async function* (partCtx): AsyncGenerator<Batch> {
              if (partition.expected !== undefined) partCtx.stats.expected = partition.expected;
              const records = readPartition(
                client,
                batchQuery.kind,
                token,
                partition,
                query.page_size,
                partCtx.signal,
              );
              for await (const page of records) yield page.map(recordToRow);
            },
          });
        }
      }
      ctx.log.debug({ parts: parts.length }, "Batch export ready.");
      return parts;
    },
  };
}
