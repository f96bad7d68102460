// Reading a batch export's partitions (the batch itself is awaited in batch-status.ts): each partition
// is downloaded, decoded by content, and fetched again from where it broke; the batch source commits
// partition by partition, so a rerun skips those already written.
import {
  BatchExportError,
  ERROR_CODES,
  hasCode,
  isApiError,
  isRetriesSpent,
  RetriesSpentError,
  spentRetryBudget,
} from "../../errors.js";
import { toNetworkError } from "../network-error.js";
import type { ServiceClient } from "../client.js";
import { backoffDelay } from "../retry-policy.js";
import { sanitizeError, showServerText } from "../redact.js";
import { isHttpStatusError } from "../http-status-error.js";
import type { BatchExport, PartitionState } from "./batch-status.js";
import { ResponseBoundError } from "../bounded-body.js";
import { decodePartition, partitionUnbounded } from "../../decoding/partition-records.js";
import type { PartitionRecord } from "../../decoding/partition-records.js";

/**
 * Streams one partition's records. A download that breaks midway is fetched again and the records
 * already handed on are skipped (a partition file does not change); a link refused (expired
 * signature) is replaced by a fresh one from the status operation.
 * @example
 * const { token, partitions } = await awaitBatchReady(client, batch);
 * for await (const records of readPartition(client, batch, token, partitions[0], 1000, signal)) write(records);
 */
export async function* readPartition(
  client: ServiceClient,
  batch: BatchExport,
  token: string,
  partition: PartitionState,
  pageSize: number,
  signal: AbortSignal,
): AsyncGenerator<PartitionRecord[]> {
  let emitted = 0;
  let url = partition.url;
  let refreshes = 0;
  const started = client.clock.now();
  const kind = batch.name;
  for (let attempt = 1; ; attempt += 1) {
    try {
      if (url === undefined)
        throw new BatchExportError(`batch partition ${partition.id} has no link`, { operation: kind });
      const response = await client.download(url, { signal });
      let toSkip = emitted;
      const decoding = decodePartition(response.body, {
        batchSize: pageSize,
        expected: partition.expected,
        bounds: client.partitionBounds,
      });
      for await (const records of decoding) {
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
      if (error instanceof ResponseBoundError && error.code === "RESPONSE_TOO_LARGE") {
        const message = `batch partition file larger than ${error.limit} bytes (service.limits.max_partition_bytes)`;
        throw wrapPartitionError(partition, kind, partitionUnbounded(message), client.secrets());
      }
      if (isHttpStatusError(error) && [400, 401, 403, 404].includes(error.status) && refreshes < 2) {
        refreshes += 1;
        const fresh = (await batch.status(client, token, signal)).find((p) => p.id === partition.id);
        url = fresh?.url;
        continue;
      }
      const retryable = !isApiError(error) || error.retryable;
      // A download whose connection attempts spent the budget is not asked again here either.
      if (!retryable || spentRetryBudget(error))
        throw wrapPartitionError(partition, kind, error, client.secrets());
      if (attempt >= client.retryPolicy.maxAttempts) {
        const last = toNetworkError(kind, error, client.secrets());
        const spent = new RetriesSpentError(last, attempt, client.clock.now() - started);
        throw wrapPartitionError(partition, kind, spent, client.secrets());
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
  if (hasCode(error, ERROR_CODES.BATCH_EXPORT_FAILED) && !isRetriesSpent(error)) return error as Error;
  // Parse errors quote the partition's bytes: shown redacted, escaped and short.
  const what = error instanceof Error ? showServerText(error.message, secrets) : "unknown failure";
  return new BatchExportError(`batch partition ${partition.id} could not be read: ${what}`, {
    operation: kind,
    // A broken download is worth another slice attempt; a partition that breaks a bound is not.
    retryable: !isApiError(error) || error.retryable,
    cause: isApiError(error) ? error : sanitizeError(error, secrets),
  });
}
