// Brings a batch export to the point where every partition can be downloaded: create it (or take a
// token to resume), poll status with backoff until all partitions are completed, and request the batch
// again, within bounded attempts, when a partition fails or the token has expired. What differs per
// API version and kind (the operations, the status's shape) is the export's strategy (batch-exports.ts).
import { BatchExportError } from "../../errors.js";
import type { ServiceClient } from "../client.js";
import { isHttpStatusError } from "../http-status-error.js";
import { describeUrl } from "../redact.js";

/** One partition as the status operation reports it, in a shape common to v1 and v2. */
export interface PartitionState {
  /** Stable within a batch: `start_time/end_time` (v2) or `time_range` (v1). */
  id: string;
  index: number;
  /** Records the service says the partition holds (v2 `log_count`/`workload_count`); v1 does not say. */
  expected: number | undefined;
  /** v2: the partition's time range in epoch ms; v1 ranges are expressions and stay undefined. */
  range?: { start: number; end: number } | undefined;
  url: string | undefined;
  ready: boolean;
  failed: boolean;
}

/**
 * One batch export: how it is requested and how its status is read.
 * @example
 * const batch: BatchExport = v2BatchExport("/v2/logs/batch", body, "log_count");
 */
export interface BatchExport {
  /** Names the export in messages and logs (`v2-logs`). */
  readonly name: string;
  /** Requests the batch; resolves to its token. */
  create(client: ServiceClient, signal?: AbortSignal): Promise<string>;
  /** Reads the batch's partitions; throws HttpStatusError when the token is unknown. */
  status(client: ServiceClient, token: string, signal?: AbortSignal): Promise<PartitionState[]>;
  /** The HTTP statuses of the status operation that say the token expired or is unknown. */
  readonly tokenGone: readonly number[];
}

export interface BatchPollOptions {
  signal?: AbortSignal;
  resumeToken?: string;
  onToken?: (token: string) => void | Promise<void>;
  /** Give up polling after this long. Default 30 minutes. */
  pollDeadlineMs?: number;
}

/**
 * Each partition once: a later entry with the id or the file (origin and path, whatever the
 * signature) of an earlier one is the same partition listed twice, and is not read again.
 */
function uniquePartitions(partitions: readonly PartitionState[]): PartitionState[] {
  const ids = new Set<string>();
  const files = new Set<string>();
  return partitions.filter((p) => {
    const file = p.url === undefined ? undefined : describeUrl(p.url);
    if (ids.has(p.id) || (file !== undefined && files.has(file))) return false;
    ids.add(p.id);
    if (file !== undefined) files.add(file);
    return true;
  });
}

/** Batch requests (creates) allowed in all, counting the first. */
const MAX_BATCH_REQUESTS = 3;

/** A status poll waits this long after a request, doubling each time up to POLL_MAX_DELAY_MS. */
const POLL_FIRST_DELAY_MS = 1000;
const POLL_MAX_DELAY_MS = 30_000;

/**
 * Polls until every partition is ready and returns them with the token that produced them.
 * @example
 * const { token, partitions } = await awaitBatchReady(client, v2BatchExport("/v2/logs/batch", body, "log_count"), { onToken: save });
 */
export async function awaitBatchReady(
  client: ServiceClient,
  batch: BatchExport,
  options: BatchPollOptions = {},
): Promise<{ token: string; partitions: PartitionState[] }> {
  const { clock, logger } = client;
  const kind = batch.name;
  const deadline = clock.now() + (options.pollDeadlineMs ?? 30 * 60_000);
  let attempts = 0;
  const waitStarted = clock.now();
  const renew = async (reason: string): Promise<string> => {
    if (attempts >= MAX_BATCH_REQUESTS) {
      throw new BatchExportError(`the ${kind} batch export ${reason}, after ${attempts} batch requests`, {
        operation: kind,
      });
    }
    attempts += 1;
    if (attempts > 1) logger.warn({ kind, reason, attempt: attempts }, "Requesting the batch export again.");
    const created = await batch.create(client, options.signal);
    await options.onToken?.(created);
    return created;
  };
  let token = options.resumeToken ?? (await renew("could not be created"));
  let delay = POLL_FIRST_DELAY_MS;
  for (;;) {
    let partitions: PartitionState[];
    try {
      partitions = await batch.status(client, token, options.signal);
    } catch (error) {
      if (!isHttpStatusError(error) || !batch.tokenGone.includes(error.status)) throw error;
      token = await renew("token expired or is unknown");
      delay = POLL_FIRST_DELAY_MS;
      continue;
    }
    const failed = partitions.filter((p) => p.failed);
    if (failed.length > 0) {
      token = await renew(`had failed partitions (${failed.map((p) => p.id).join(", ")})`);
      delay = POLL_FIRST_DELAY_MS;
      continue;
    }
    if (partitions.every((p) => p.ready)) {
      const unique = uniquePartitions(partitions);
      if (unique.length < partitions.length) {
        logger.warn(
          { kind, listed: partitions.length, distinct: unique.length },
          "The batch status lists a partition more than once; each is read once.",
        );
      }
      client.observer.batchWaited((clock.now() - waitStarted) / 1000);
      return { token, partitions: unique };
    }
    if (clock.now() + delay > deadline) {
      const waiting = partitions.filter((p) => !p.ready).map((p) => p.id);
      throw new BatchExportError(
        `the ${kind} batch export was not ready before the polling deadline; still waiting for ${waiting.join(", ")}`,
        { operation: kind, retryable: true },
      );
    }
    logger.debug({ kind, waiting: partitions.filter((p) => !p.ready).length, delay }, "Batch not ready.");
    await clock.sleep(delay, options.signal);
    delay = Math.min(POLL_MAX_DELAY_MS, delay * 2);
  }
}
