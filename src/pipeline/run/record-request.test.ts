import { describe, expect, it } from "vitest";
import type { Column } from "../../core/contracts.js";
import { defaultComponents, formatOf } from "../../components/environment.js";
import { createSinkConfigSchema } from "../../sinks/sink-config.js";
import { recordRequest } from "./record-request.js";
import type { SinkRuntime } from "./sink-runtime.js";

const components = defaultComponents();
const sinkSchema = createSinkConfigSchema(components);
const COLUMNS: Column[] = [
  { name: "_id", type: "string" },
  { name: "n", type: "int64" },
];

/** A sink as the run holds it, with only what the request reads: its format, path, columns and renaming. */
function sink(
  fields: Record<string, unknown>,
  options: { renames?: boolean; columns?: Column[] } = {},
): SinkRuntime {
  const config = sinkSchema.parse({ to: "./out", ...fields });
  const renames = options.renames === true ? { conformRow: (row: object) => row } : {};
  return {
    config,
    format: formatOf(components, config),
    columns: options.columns ?? COLUMNS,
    schema: renames,
  } as unknown as SinkRuntime;
}

describe("recordRequest", () => {
  it("asks for lines, with a fresh reader per attempt, when every sink writes JSON text and reads no field", () => {
    const request = recordRequest(
      [sink({ format: "ndjson" }), sink({ format: "ndjson", gzip: true })],
      0,
      COLUMNS,
    );
    const first = request();
    expect(first.shape).toBe("lines");
    expect(first.reader).toBeDefined();
    expect(request().reader).not.toBe(first.reader);
  });

  it("asks for columns when the one sink takes them and writes the columns the report knows", () => {
    const request = recordRequest([sink({ format: "parquet" })], 0, COLUMNS);
    expect(request().shape).toBe("columns");
    expect(request().reader).toBeDefined();
  });

  it("asks for parsed rows wherever something reads a record's fields, with JSON when a sink writes it", () => {
    const cases: [SinkRuntime[], number, { shape: string; json?: boolean }][] = [
      [[sink({ format: "ndjson" })], 1, { shape: "rows", json: true }],
      [[sink({ format: "ndjson" }, { renames: true })], 0, { shape: "rows", json: true }],
      [[sink({ format: "ndjson", path: "{_index}/{slice}-{seq}.{ext}" })], 0, { shape: "rows", json: true }],
      [[sink({ format: "parquet" }), sink({ format: "ndjson" })], 0, { shape: "rows", json: true }],
      [[sink({ format: "parquet" }), sink({ format: "parquet" })], 0, { shape: "rows", json: false }],
      [[sink({ format: "parquet" }, { columns: COLUMNS.slice(0, 1) })], 0, { shape: "rows", json: false }],
      [[sink({ format: "parquet" })], 2, { shape: "rows", json: false }],
    ];
    for (const [sinks, transforms, expected] of cases)
      expect(recordRequest(sinks, transforms, COLUMNS)()).toEqual(expected);
  });
});
