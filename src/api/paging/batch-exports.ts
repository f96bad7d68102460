// The batch exports of the service's two API versions, as strategies of the one poll loop
// (batch-status.ts). Which operation and which count field are the kind's to say: nothing here
// names a kind, so a kind with a batch export of either version needs nothing of api/ changed.
import { z } from "zod";
import type { ServiceClient } from "../client.js";
import type { RequestOf, ResponseOf } from "../service-operation.js";
import type { OperationPath } from "../wire/operations.js";
import { partitionSchema } from "../wire/hits.js";
import { escapeControl } from "../redact.js";
import type { BatchExport, PartitionState } from "./batch-status.js";

type V2BatchPath = Extract<OperationPath, `/v2/${string}/batch`>;
type V1BatchPath = Extract<OperationPath, `/v1/${string}/batch`>;

/** `v2-logs` for `/v2/logs/batch`: how messages and logs have always named an export. */
const nameOf = (path: string): string => path.split("/").slice(1, 3).join("-");

/** The spec's "not ready" is the literal text null; an actual null or an empty string is read the same. */
function usableUrl(url: string | null | undefined): string | undefined {
  return url === null || url === undefined || url.trim() === "" || url.trim() === "null" ? undefined : url;
}

function countOf(partition: Readonly<Record<string, unknown>>, field: string): number | undefined {
  const count = partition[field];
  return typeof count === "number" && Number.isInteger(count) ? count : undefined;
}

/**
 * A v2 batch export (`<path>`, then `<path>/status` until its partitions are completed). `countField`
 * names where a partition reports its records (`log_count`).
 * @example
 * awaitBatchReady(client, v2BatchExport("/v2/workloads/batch", body, "workload_count"))
 */
export function v2BatchExport<P extends V2BatchPath>(
  path: P,
  body: RequestOf<P>,
  countField: string,
): BatchExport {
  const statusPath = `${path}/status` as Extract<OperationPath, `${V2BatchPath}/status`>;
  return {
    name: nameOf(path),
    tokenGone: [404, 410],
    create: async (client, signal) =>
      ((await client.call(path, body, { signal })) as ResponseOf<V2BatchPath>).data.token,
    async status(client, token, signal) {
      const list = partitionList(await client.call(statusPath, { token }, { signal }));
      return list.map((p, index) => {
        const url = usableUrl(p.presigned_url);
        return {
          id: escapeControl(`${p.start_time}/${p.end_time}`),
          range: rangeOf(p.start_time, p.end_time),
          index,
          expected: countOf(p, countField),
          url,
          ready: p.completed && p.status === "completed" && url !== undefined,
          failed: p.status === "failed",
        };
      });
    },
  };
}

/**
 * A v1 batch export (`<path>`, then `<path>/urls`). v1 links show no count in the spec; one sent
 * anyway (at `countField`) is checked like v2's. An unknown token may also answer 401 on v1.
 * @example
 * awaitBatchReady(client, v1BatchExport("/v1/logs/batch", { application: "atr", time_range: "now-1d/d" }, "log_count"))
 */
export function v1BatchExport<P extends V1BatchPath>(
  path: P,
  body: RequestOf<P>,
  countField: string,
): BatchExport {
  const urlsPath = `${path}/urls` as Extract<OperationPath, `${V1BatchPath}/urls`>;
  return {
    name: nameOf(path),
    tokenGone: [401, 404, 410],
    create: async (client, signal) => (await client.call(path, body, { signal })).token,
    async status(client: ServiceClient, token, signal): Promise<PartitionState[]> {
      const response = await client.call(urlsPath, { token }, { signal });
      return response.presigned_urls.map((link, index) => {
        const url = usableUrl(link.presigned_url);
        return {
          // Ids reach messages and the state: the server's text, escaped.
          id: link.time_range === "" ? String(index) : escapeControl(link.time_range),
          index,
          expected: countOf(link, countField),
          url,
          ready: link.ready && url !== undefined,
          failed: link.status === "failed",
        };
      });
    },
  };
}

/**
 * The partitions of a status response, which the wire schema accepts at the top level or under `data`.
 * Its union of loose objects does not narrow in TypeScript, so the list is taken out by parsing again.
 */
function partitionList(response: unknown): z.infer<typeof partitionSchema>[] {
  const list = z.array(partitionSchema);
  const top = z.looseObject({ presigned_urls: list }).safeParse(response);
  if (top.success) return top.data.presigned_urls;
  const nested = z.looseObject({ data: z.looseObject({ presigned_urls: list }) }).safeParse(response);
  return nested.success ? nested.data.data.presigned_urls : [];
}

function rangeOf(start: string, end: string): { start: number; end: number } | undefined {
  const range = { start: Date.parse(start), end: Date.parse(end) };
  return Number.isNaN(range.start) || Number.isNaN(range.end) ? undefined : range;
}
