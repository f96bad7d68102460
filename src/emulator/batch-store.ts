// Batch exports: a token per export, partitions by time slice that move to completed after a number of
// status polls (some workloads partitions fail on request), download URLs with expiring HMAC signatures.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { ResolvedOptions } from "./options.js";
import { planWindow } from "./plan.js";
import type { QueryPlan } from "./plan.js";
import { countPlan } from "./scan.js";

type PartitionStatus = "completed" | "processing" | "pending" | "failed";

export interface Partition {
  index: number;
  /** The job's plan narrowed to the partition's time slice. */
  plan: QueryPlan;
  polls: number;
  count?: number;
}

export interface BatchJob {
  token: string;
  kind: "logs" | "workloads";
  plan: QueryPlan;
  createdMs: number;
  partitions: Partition[];
}

export interface PartitionView {
  partition: Partition;
  status: PartitionStatus;
  /** Records in the partition file; 0 until completed. */
  count: number;
  url: string | undefined;
}

export interface BatchStore {
  create(kind: "logs" | "workloads", plan: QueryPlan): BatchJob;
  /** The job, or undefined when unknown or past the batch token lifetime. */
  get(token: string): BatchJob | undefined;
  /** One status poll: advances every partition and reports its state. */
  poll(job: BatchJob, baseUrl: string): PartitionView[];
  /** The partition a signed download URL names, or why not. */
  resolveDownload(url: URL): Partition | "expired" | "invalid";
}

export function createBatchStore(options: ResolvedOptions): BatchStore {
  const jobs = new Map<string, BatchJob>();
  const key = randomBytes(32);
  const sign = (path: string, expires: number) =>
    createHmac("sha256", key).update(`${path}\n${expires}`).digest("base64url");
  const statusOf = (job: BatchJob, partition: Partition): PartitionStatus => {
    if (partition.polls <= options.batchReadyAfterPolls) {
      return job.kind === "logs" && partition.polls <= 1 && options.batchReadyAfterPolls > 0
        ? "pending"
        : "processing";
    }
    if (job.kind === "workloads" && options.failingPartitions.includes(partition.index)) return "failed";
    return "completed";
  };
  return {
    create(kind, plan) {
      const token = `bt_${randomBytes(18).toString("base64url")}`;
      const step = options.batchPartitionSeconds * 1000;
      const partitions: Partition[] = [];
      for (let start = plan.startMs, index = 0; start < plan.endMs; start += step, index++) {
        const end = Math.min(plan.endMs, start + step);
        partitions.push({ index, plan: { ...plan, ...planWindow(start, end) }, polls: 0 });
      }
      const job = { token, kind, plan, createdMs: options.clock(), partitions };
      jobs.set(token, job);
      return job;
    },
    get(token) {
      const job = jobs.get(token.trim());
      if (!job) return undefined;
      if (options.clock() - job.createdMs >= options.batchTokenTtlSeconds * 1000) {
        jobs.delete(job.token);
        return undefined;
      }
      return job;
    },
    poll(job, baseUrl) {
      return job.partitions.map((partition) => {
        partition.polls++;
        const status = statusOf(job, partition);
        if (status !== "completed") return { partition, status, count: 0, url: undefined };
        partition.count ??= countPlan(partition.plan).total;
        const path = `/downloads/${job.token}/${partition.index}`;
        const expires = options.clock() + options.downloadUrlTtlSeconds * 1000;
        const url = `${baseUrl}${path}?expires=${expires}&signature=${sign(path, expires)}`;
        return { partition, status, count: partition.count, url };
      });
    },
    resolveDownload(url) {
      const match = /^\/downloads\/([^/]+)\/(\d+)$/.exec(url.pathname);
      const expires = Number(url.searchParams.get("expires"));
      const signature = Buffer.from(url.searchParams.get("signature") ?? "");
      if (!match?.[1] || !Number.isFinite(expires)) return "invalid";
      const expected = Buffer.from(sign(url.pathname, expires));
      if (signature.length !== expected.length || !timingSafeEqual(signature, expected)) return "invalid";
      if (options.clock() >= expires) return "expired";
      const partition = jobs.get(match[1])?.partitions[Number(match[2])];
      return partition?.count === undefined ? "invalid" : partition;
    },
  };
}
