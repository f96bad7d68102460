// Sharded runs: a run takes every n-th slice, so n containers of an existing scheduler (Kubernetes
// Indexed Jobs, AWS Batch array jobs) split a backfill between them without a coordinator.
import type { ConfigError } from "../../errors.js";
import { configErrorAt } from "../../errors.js";

export interface Shard {
  index: number;
  count: number;
}

/** Where schedulers put the worker's index. */
const INDEX_VARIABLES = ["JOB_COMPLETION_INDEX", "AWS_BATCH_JOB_ARRAY_INDEX"] as const;

const shardError = (message: string): ConfigError => configErrorAt("--shard", message);

/**
 * Resolves the shard from `--shard i/n`, or from `--shard-count n` (or MDQ_SHARD_COUNT) with the index
 * read from the scheduler's variable. Undefined when the run is not sharded.
 */
export function resolveShard(
  flag: string | undefined,
  countFlag: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
): Shard | undefined {
  if (flag !== undefined) {
    const match = /^(\d+)\/(\d+)$/.exec(flag.trim());
    if (match === null) throw shardError(`--shard "${flag}" is not i/n (for example 0/4)`);
    return checked(Number(match[1]), Number(match[2]), "--shard");
  }
  const count = countFlag ?? env.MDQ_SHARD_COUNT;
  if (count === undefined) return undefined;
  if (!/^\d+$/.test(count)) throw shardError(`the shard count "${count}" is not a whole number`);
  for (const variable of INDEX_VARIABLES) {
    const value = env[variable];
    if (value === undefined) continue;
    if (!/^\d+$/.test(value)) throw shardError(`${variable}="${value}" is not a whole number`);
    return checked(Number(value), Number(count), variable);
  }
  throw shardError(
    `a shard count of ${count} was given but no index: pass --shard i/n or set ${INDEX_VARIABLES.join(" or ")}`,
  );
}

function checked(index: number, count: number, source: string): Shard {
  if (count < 1) throw shardError(`${source}: the shard count must be at least 1`);
  if (index >= count) throw shardError(`${source}: shard index ${index} is not below the count ${count}`);
  return { index, count };
}

/** What a shard's own objects (state, manifest, `_SUCCESS`) add to their names: `.shard-1-of-4`, or nothing. */
export function shardSuffix(shard: Shard | undefined): string {
  return shard === undefined || shard.count === 1 ? "" : `.shard-${shard.index}-of-${shard.count}`;
}

/** The slices of this shard: every `count`-th slice from `index`, so each hour lands on exactly one shard. */
export function selectShard<T extends { index: number }>(items: readonly T[], shard: Shard | undefined): T[] {
  if (shard === undefined || shard.count === 1) return [...items];
  return items.filter((item) => item.index % shard.count === shard.index);
}

/**
 * The reserve a shard enforces. Every shard sees the same remaining count (the quota is the
 * client's), so the reserve is shared rather than multiplied; the margin covers the requests the
 * other shards may have in flight when the count crosses the reserve.
 */
export function shardReserve(reserve: number, shard: Shard | undefined, concurrency: number): number {
  if (shard === undefined || shard.count === 1 || reserve === 0) return reserve;
  return reserve + (shard.count - 1) * concurrency;
}
