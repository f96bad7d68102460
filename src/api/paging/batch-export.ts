// Batch export as pages: wait for the batch (see batch-status.ts), then download the partitions
// concurrently under p-limit, decode them by content, check each one's record count, and report
// progress through hooks so a rerun can resume with the same token and skip finished partitions.
import pLimit from "p-limit";
import { ApiError, BatchExportError } from "../../errors.js";
import type { ServiceClient } from "../client.js";
import { backoffDelay } from "../retry-policy.js";
import { redactText, sanitizeError } from "../redact.js";
import { HttpStatusError } from "../http-status-error.js";
import { awaitBatchReady, readPartitions } from "./batch-status.js";
import type { BatchExportQuery, BatchPollOptions, PartitionState } from "./batch-status.js";
import { decodePartition } from "./partition-records.js";
import type { PartitionRecord } from "./partition-records.js";
import { PageQueue } from "./page-queue.js";

export type { BatchExportQuery, PartitionState } from "./batch-status.js";

/** A partition as the hooks and pages describe it. */
export interface PartitionInfo {
  id: string;
  index: number;
  /** From `log_count`/`workload_count`; undefined on v1. */
  expected: number | undefined;
}

export interface BatchExportOptions extends BatchPollOptions {
  /** Partition ids already downloaded by an earlier run (with the same `resumeToken`). */
  skipPartitions?: Iterable<string>;
  /** Called after a partition's last page has been taken by the consumer. */
  onPartitionDone?: (partition: PartitionInfo & { records: number }) => void | Promise<void>;
  /** Partitions downloaded at once. Default 4. */
  concurrency?: number;
  /** Records per page. Default 1000. */
  pageSize?: number;
}

/** One page of a partition. The last page of a partition has `partitionDone` (it may have no hits). */
export interface BatchPage {
  hits: PartitionRecord[];
  partition: PartitionInfo;
  partitionDone: boolean;
  /** Partitions in the batch, including skipped ones. */
  partitionCount: number;
}

function infoOf(p: PartitionState): PartitionInfo {
  return { id: p.id, index: p.index, expected: p.expected };
}

/**
 * Exports a batch to its end. Throws BatchExportError (failed partitions beyond the attempts, deadline,
 * a partition whose record count differs from the status report).
 * @example
 * for await (const page of batchExport(client, { kind: "v2-logs", body }, { resumeToken, skipPartitions, onToken, onPartitionDone })) write(page.hits);
 */
export async function* batchExport(
  client: ServiceClient,
  query: BatchExportQuery,
  options: BatchExportOptions = {},
): AsyncGenerator<BatchPage> {
  const { token, partitions } = await awaitBatchReady(client, query, options);
  const skip = new Set(options.skipPartitions ?? []);
  const pending = partitions.filter((p) => !skip.has(p.id));
  client.logger.debug(
    { kind: query.kind, partitions: partitions.length, pending: pending.length },
    "Batch ready.",
  );
  const controller = new AbortController();
  const signal =
    options.signal === undefined ? controller.signal : AbortSignal.any([options.signal, controller.signal]);
  const queue = new PageQueue<BatchPage>(Math.max(2, (options.concurrency ?? 4) * 2));
  const limit = pLimit(options.concurrency ?? 4);
  const download = async (partition: PartitionState): Promise<void> => {
    let records = 0;
    for await (const hits of readPartition(
      client,
      query.kind,
      token,
      partition,
      options.pageSize ?? 1000,
      signal,
    )) {
      records += hits.length;
      await queue.push({
        hits,
        partition: infoOf(partition),
        partitionDone: false,
        partitionCount: partitions.length,
      });
    }
    if (partition.expected !== undefined && records !== partition.expected) {
      throw new BatchExportError(
        `batch partition ${partition.id} held ${records} records but the status reported ${partition.expected}`,
        { operation: query.kind, retryable: true },
      );
    }
    await queue.push({
      hits: [],
      partition: infoOf(partition),
      partitionDone: true,
      partitionCount: partitions.length,
    });
  };
  Promise.all(pending.map((p) => limit(() => download(p)))).then(
    () => queue.close(),
    (error: unknown) => queue.fail(error),
  );
  const counts = new Map<string, number>();
  try {
    for await (const page of queue) {
      counts.set(page.partition.id, (counts.get(page.partition.id) ?? 0) + page.hits.length);
      yield page;
      // Only now has the consumer taken the partition's last page, so it may count as done.
      if (page.partitionDone) {
        await options.onPartitionDone?.({ ...page.partition, records: counts.get(page.partition.id) ?? 0 });
      }
    }
  } finally {
    controller.abort();
    limit.clearQueue();
  }
}

/**
 * Streams one partition's records. A download that breaks midway is fetched again and the records
 * already handed on are skipped (a partition file does not change); a link refused (expired
 * signature) is replaced by a fresh one from the status operation. Used by `batchExport`, and by
 * callers that commit partition by partition.
 * @example
 * const { token, partitions } = await awaitBatchReady(client, query);
 * for await (const records of readPartition(client, query.kind, token, partitions[0], 1000, signal)) write(records);
 */
export async function* readPartition(
  client: ServiceClient,
  kind: BatchExportQuery["kind"],
  token: string,
  partition: PartitionState,
  pageSize: number,
  signal: AbortSignal,
): AsyncGenerator<PartitionRecord[]> {
  let emitted = 0;
  let url = partition.url;
  let refreshes = 0;
  for (let attempt = 1; ; attempt += 1) {
    try {
      if (url === undefined)
        throw new BatchExportError(`batch partition ${partition.id} has no link`, { operation: kind });
      const response = await client.download(url, { signal });
      let toSkip = emitted;
      for await (const records of decodePartition(response.body, pageSize)) {
        // The body may already be buffered: without this an aborted export would hand on its pages.
        signal.throwIfAborted();
        const fresh = toSkip >= records.length ? [] : records.slice(toSkip);
        toSkip = Math.max(0, toSkip - records.length);
        if (fresh.length === 0) continue;
        emitted += fresh.length;
        yield fresh;
      }
      return;
    } catch (error) {
      if (signal.aborted) throw error;
      if (error instanceof HttpStatusError && [400, 401, 403, 404].includes(error.status) && refreshes < 2) {
        refreshes += 1;
        const fresh = (await readPartitions(client, kind, token, signal)).find((p) => p.id === partition.id);
        url = fresh?.url;
        continue;
      }
      const retryable = !(error instanceof ApiError) || error.retryable;
      if (!retryable || attempt >= client.retryPolicy.maxAttempts) {
        throw wrapPartitionError(partition, kind, error, client.secrets());
      }
      client.logger.warn(
        { partition: partition.id, attempt, emitted },
        "Downloading a batch partition again.",
      );
      await client.clock.sleep(backoffDelay(attempt, client.retryPolicy, client.random), signal);
    }
  }
}

function wrapPartitionError(
  partition: PartitionState,
  kind: string,
  error: unknown,
  secrets: readonly string[],
): Error {
  if (error instanceof BatchExportError) return error;
  const what = error instanceof Error ? redactText(error.message, secrets) : "unknown failure";
  return new BatchExportError(`batch partition ${partition.id} could not be read: ${what}`, {
    operation: kind,
    retryable: true,
    cause: error instanceof ApiError ? error : sanitizeError(error, secrets),
  });
}
