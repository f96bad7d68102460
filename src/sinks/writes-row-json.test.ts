import { describe, expect, it } from "vitest";
import { defaultComponents, formatOf } from "../components/environment.js";
import { createSinkConfigSchema } from "./sink-config.js";
import { writesRowJson } from "./sink.js";

const components = defaultComponents();
const sinkSchema = createSinkConfigSchema(components);

describe("writesRowJson", () => {
  const sink = (format: string): ReturnType<typeof sinkSchema.parse> =>
    sinkSchema.parse({ format, to: "./out" });

  it("is true for NDJSON, which writes rows as JSON text", () => {
    expect(writesRowJson(sink("ndjson"), formatOf(components, sink("ndjson")))).toBe(true);
  });

  it("is false for Parquet, which reads rows column by column on the main thread", () => {
    expect(writesRowJson(sink("parquet"), formatOf(components, sink("parquet")))).toBe(false);
  });
});
