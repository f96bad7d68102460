// Brings a batch export to the point where every partition can be downloaded: create it (or take a
// token to resume), poll status with backoff until all partitions are completed, and request the batch
// again, within bounded attempts, when a partition fails or the token has expired.
import { z } from "zod";
import { BatchExportError } from "../../errors.js";
import { logsPartitionSchema, workloadsPartitionSchema } from "../wire/hits.js";
import type { ServiceClient } from "../client.js";
import type { RequestOf } from "../service-operation.js";
import { isHttpStatusError } from "../http-status-error.js";
import { describeUrl, escapeControl } from "../redact.js";

/** Which batch to export, with its create request. */
export type BatchExportQuery =
  | { kind: "v2-logs"; body: RequestOf<"/v2/logs/batch"> }
  | { kind: "v2-workloads"; body: RequestOf<"/v2/workloads/batch"> }
  | { kind: "v1-logs"; body: RequestOf<"/v1/logs/batch"> };

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

export interface BatchPollOptions {
  signal?: AbortSignal;
  resumeToken?: string;
  onToken?: (token: string) => void | Promise<void>;
  /** Batch requests (creates) allowed in all, counting the first. Default 3. */
  maxBatchAttempts?: number;
  /** Give up polling after this long. Default 30 minutes. */
  pollDeadlineMs?: number;
}

/** The spec's "not ready" is the literal text null; an actual null or an empty string is read the same. */
function usableUrl(url: string | null | undefined): string | undefined {
  return url === null || url === undefined || url.trim() === "" || url.trim() === "null" ? undefined : url;
}

async function createBatch(
  client: ServiceClient,
  query: BatchExportQuery,
  signal?: AbortSignal,
): Promise<string> {
  const options = { signal };
  if (query.kind === "v1-logs") return (await client.call("/v1/logs/batch", query.body, options)).token;
  const path = query.kind === "v2-logs" ? "/v2/logs/batch" : "/v2/workloads/batch";
  return (await client.call(path, query.body, options)).data.token;
}

/** Reads the partitions of a batch; throws HttpStatusError 404 (or 401 on v1) when the token is unknown. */
export async function readPartitions(
  client: ServiceClient,
  kind: BatchExportQuery["kind"],
  token: string,
  signal?: AbortSignal,
): Promise<PartitionState[]> {
  const options = { signal };
  if (kind === "v1-logs") {
    const response = await client.call("/v1/logs/batch/urls", { token }, options);
    return response.presigned_urls.map((link, index) => {
      const url = usableUrl(link.presigned_url);
      // Ids reach messages and the state: the server's text, escaped.
      const id = link.time_range === "" ? String(index) : escapeControl(link.time_range);
      // v1 links show no count in the spec; one sent anyway (as `log_count`) is checked like v2's.
      const count = link["log_count"];
      const expected = typeof count === "number" && Number.isInteger(count) ? count : undefined;
      return {
        id,
        index,
        expected,
        url,
        ready: link.ready && url !== undefined,
        failed: link.status === "failed",
      };
    });
  }
  const list =
    kind === "v2-logs"
      ? partitionList(
          await client.call("/v2/logs/batch/status", { token }, options),
          logsPartitionSchema,
        ).map((p) => ({ ...p, count: p.log_count }))
      : partitionList(
          await client.call("/v2/workloads/batch/status", { token }, options),
          workloadsPartitionSchema,
        ).map((p) => ({ ...p, count: p.workload_count }));
  return list.map((p, index) => {
    const url = usableUrl(p.presigned_url);
    const ready = p.completed && p.status === "completed" && url !== undefined;
    return {
      id: escapeControl(`${p.start_time}/${p.end_time}`),
      range: rangeOf(p.start_time, p.end_time),
      index,
      expected: p.count,
      url,
      ready,
      failed: p.status === "failed",
    };
  });
}

/**
 * The partitions of a status response, which the wire schema accepts at the top level or under `data`.
 * Its union of loose objects does not narrow in TypeScript, so the list is taken out by parsing again.
 */
function partitionList<T extends z.ZodType>(response: unknown, partition: T): z.infer<T>[] {
  const top = z.looseObject({ presigned_urls: z.array(partition) }).safeParse(response);
  if (top.success) return top.data.presigned_urls;
  const nested = z
    .looseObject({ data: z.looseObject({ presigned_urls: z.array(partition) }) })
    .safeParse(response);
  return nested.success ? nested.data.data.presigned_urls : [];
}

function rangeOf(start: string, end: string): { start: number; end: number } | undefined {
  const range = { start: Date.parse(start), end: Date.parse(end) };
  return Number.isNaN(range.start) || Number.isNaN(range.end) ? undefined : range;
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

function isTokenGone(kind: BatchExportQuery["kind"], error: unknown): boolean {
  if (!isHttpStatusError(error)) return false;
  return error.status === 404 || error.status === 410 || (kind === "v1-logs" && error.status === 401);
}

/** A status poll waits this long after a request, doubling each time up to POLL_MAX_DELAY_MS. */
const POLL_FIRST_DELAY_MS = 1000;
const POLL_MAX_DELAY_MS = 30_000;

/**
 * Polls until every partition is ready and returns them with the token that produced them.
 * @example
 * const { token, partitions } = await awaitBatchReady(client, { kind: "v2-logs", body }, { onToken: save });
 */
export async function awaitBatchReady(
  client: ServiceClient,
  query: BatchExportQuery,
  options: BatchPollOptions = {},
): Promise<{ token: string; partitions: PartitionState[] }> {
  const { clock, logger } = client;
  const maxAttempts = options.maxBatchAttempts ?? 3;
  const deadline = clock.now() + (options.pollDeadlineMs ?? 30 * 60_000);
  let attempts = 0;
  const waitStarted = clock.now();
  const renew = async (reason: string): Promise<string> => {
    if (attempts >= maxAttempts) {
      throw new BatchExportError(
        `the ${query.kind} batch export ${reason}, after ${attempts} batch requests`,
        {
          operation: query.kind,
        },
      );
    }
    attempts += 1;
    if (attempts > 1)
      logger.warn({ kind: query.kind, reason, attempt: attempts }, "Requesting the batch export again.");
    const created = await createBatch(client, query, options.signal);
    await options.onToken?.(created);
    return created;
  };
  let token = options.resumeToken ?? (await renew("could not be created"));
  let delay = POLL_FIRST_DELAY_MS;
  for (;;) {
    let partitions: PartitionState[];
    try {
      partitions = await readPartitions(client, query.kind, token, options.signal);
    } catch (error) {
      if (!isTokenGone(query.kind, error)) throw error;
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
          { kind: query.kind, listed: partitions.length, distinct: unique.length },
          "The batch status lists a partition more than once; each is read once.",
        );
      }
      client.observer.batchWaited((clock.now() - waitStarted) / 1000);
      return { token, partitions: unique };
    }
    if (clock.now() + delay > deadline) {
      const waiting = partitions.filter((p) => !p.ready).map((p) => p.id);
      throw new BatchExportError(
        `the ${query.kind} batch export was not ready before the polling deadline; still waiting for ${waiting.join(", ")}`,
        { operation: query.kind, retryable: true },
      );
    }
    logger.debug(
      { kind: query.kind, waiting: partitions.filter((p) => !p.ready).length, delay },
      "Batch not ready.",
    );
    await clock.sleep(delay, options.signal);
    delay = Math.min(POLL_MAX_DELAY_MS, delay * 2);
  }
}
