import { describe, expect, it } from "vitest";
import { createWorkerPool } from "../core/worker-pool.js";
import { defaultComponents, formatOf } from "../components/environment.js";
import { createSinkConfigSchema } from "./sink-config.js";
import { writesRowJson } from "./sink.js";

const components = defaultComponents();
const sinkSchema = createSinkConfigSchema(components);

describe("writesRowJson", () => {
  const sink = (format: string): ReturnType<typeof sinkSchema.parse> =>
    sinkSchema.parse({ format, to: "./out" });

  it("is true for NDJSON, with or without worker threads", () => {
    expect(writesRowJson(sink("ndjson"), formatOf(components, sink("ndjson")), undefined)).toBe(true);
    expect(writesRowJson(sink("ndjson"), formatOf(components, sink("ndjson")), createWorkerPool(1))).toBe(
      true,
    );
  });

  it("is true for Parquet only when its row groups may go to worker threads as lines", () => {
    expect(writesRowJson(sink("parquet"), formatOf(components, sink("parquet")), undefined)).toBe(false);
    expect(writesRowJson(sink("parquet"), formatOf(components, sink("parquet")), createWorkerPool(0))).toBe(
      false,
    );
    expect(writesRowJson(sink("parquet"), formatOf(components, sink("parquet")), createWorkerPool(1))).toBe(
      true,
    );
  });
});
