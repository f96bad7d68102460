// The batch source: an asynchronous batch export (the kind builds its create requests) polled
// until its partitions can be downloaded. Each partition is a part the runner commits on its own, and
// the batch tokens go to the state, so a rerun within the token's lifetime neither asks for (and pays
// for) a new export nor downloads again the partitions already written.
import type { ServiceClient } from "../api/client.js";
import { awaitBatchReady } from "../api/paging/batch-status.js";
import type { BatchExport } from "../api/paging/batch-status.js";
import { readPartition } from "../api/paging/read-partition.js";
import type { RecordBatch, PartitionedSource, Row, Slice, SourcePart } from "../core/contracts.js";
import { hitAsRow, hitToRow } from "./source-spec.js";
import { rowsCarryJson } from "../core/hit-reader.js";

export interface BatchResume {
  /** Tokens an earlier attempt or run at this slice obtained, by request number ("0", "1", ...). */
  tokens: Readonly<Record<string, string>>;
  onToken(request: string, token: string): Promise<void>;
}

export interface BatchSourceOptions {
  resume?: BatchResume | undefined;
  pollDeadlineMs?: number;
}

/**
 * Partition files carry hits; a file of bare documents is read as their `_source`. `asJson`: a sink
 * writes rows as JSON text, so the row is a new object in hitToRow's key order (else hitAsRow).
 */
function recordToRow(record: Readonly<Record<string, unknown>>, asJson: boolean): Row {
  const source = record._source;
  if (source !== null && typeof source === "object" && typeof record._id === "string") {
    return (asJson || Array.isArray(source) ? hitToRow : hitAsRow)({
      _id: record._id,
      _index: typeof record._index === "string" ? record._index : "",
      _source: source as Record<string, unknown>,
    });
  }
  return record;
}

/** What to export: the kind's batch exports for a slice (one per request set), and the download page size. */
interface BatchQueries {
  queries(slice: Slice): BatchExport[];
  pageSize: number;
}

export function createBatchSource(
  batch: BatchQueries,
  client: ServiceClient,
  options: BatchSourceOptions = {},
): PartitionedSource {
  return {
    async parts(ctx) {
      const parts: SourcePart[] = [];
      for (const [index, batchExport] of batch.queries(ctx.slice).entries()) {
        const request = String(index);
        const resumeToken = options.resume?.tokens[request];
        const { token, partitions } = await awaitBatchReady(client, batchExport, {
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
            range: partition.range,
            source: async function* (partCtx): AsyncGenerator<RecordBatch> {
              if (partition.expected !== undefined) partCtx.stats.expected = partition.expected;
              const records = readPartition(
                client,
                batchExport,
                token,
                partition,
                batch.pageSize,
                partCtx.signal,
              );
              const asJson = rowsCarryJson(partCtx.records);
              for await (const page of records)
                yield { kind: "rows", rows: page.map((record) => recordToRow(record, asJson)) };
            },
          });
        }
      }
      ctx.log.debug({ parts: parts.length }, "Batch export ready.");
      return parts;
    },
  };
}
