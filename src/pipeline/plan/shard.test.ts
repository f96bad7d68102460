import { describe, expect, it } from "vitest";
import { ConfigError } from "../../errors.js";
import { resolveShard, selectShard, shardReserve } from "./shard.js";

describe("shards", () => {
  it("parses --shard i/n and refuses nonsense", () => {
    expect(resolveShard("1/4", undefined, {})).toEqual({ index: 1, count: 4 });
    expect(() => resolveShard("4/4", undefined, {})).toThrow(/not below the count 4/);
    expect(() => resolveShard("one of four", undefined, {})).toThrow(ConfigError);
    expect(resolveShard(undefined, undefined, {})).toBeUndefined();
  });

  it("reads the index from Kubernetes or AWS Batch with the count from a flag or variable", () => {
    expect(resolveShard(undefined, "3", { JOB_COMPLETION_INDEX: "2" })).toEqual({ index: 2, count: 3 });
    expect(
      resolveShard(undefined, undefined, { MDQ_SHARD_COUNT: "5", AWS_BATCH_JOB_ARRAY_INDEX: "4" }),
    ).toEqual({
      index: 4,
      count: 5,
    });
    expect(() => resolveShard(undefined, "3", {})).toThrow(/JOB_COMPLETION_INDEX/);
  });

  it("gives every slice to exactly one shard", () => {
    const slices = Array.from({ length: 10 }, (_, index) => ({ index }));
    const shards = [0, 1, 2].map((index) =>
      selectShard(slices, { index, count: 3 }).map((slice) => slice.index),
    );
    expect(shards.flat().sort((a, b) => a - b)).toEqual(slices.map((slice) => slice.index));
    expect(shards[1]).toEqual([1, 4, 7]);
  });

  it("keeps a margin for other shards' requests in flight", () => {
    expect(shardReserve(500, { index: 0, count: 4 }, 2)).toBe(506);
    expect(shardReserve(500, undefined, 2)).toBe(500);
  });
});
