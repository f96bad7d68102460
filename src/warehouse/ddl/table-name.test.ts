import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { defaultTableName } from "./table-name.js";

describe("defaultTableName", () => {
  it("keeps a single sink's name; names several sinks by format, and by number when formats repeat", () => {
    expect(defaultTableName("nightly-jobs", ["parquet"], 0)).toBe("nightly_jobs");
    expect(defaultTableName("demo", ["parquet", "ndjson"], 0)).toBe("demo_parquet");
    expect(defaultTableName("demo", ["parquet", "ndjson"], 1)).toBe("demo_ndjson");
    expect(defaultTableName("demo", ["parquet", "ndjson", "ndjson"], 2)).toBe("demo_ndjson_3");
    // Names that would meet fall back to the sink's number.
    expect(defaultTableName("demo", ["csv", "csv", "csv_2"], 2)).toBe("demo_sink_3");
  });

  it("gives every sink of any pipeline a table of its own", () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 12 }),
        fc.array(fc.constantFrom("parquet", "ndjson", "csv", "csv_2", "csvV2", "csv_v2"), {
          minLength: 1,
          maxLength: 8,
        }),
        (pipeline, formats) => {
          const names = formats.map((_format, index) => defaultTableName(pipeline, formats, index));
          expect(new Set(names).size).toBe(formats.length);
        },
      ),
    );
  });
});
