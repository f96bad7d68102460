import { describe, expect, it } from "vitest";
import { formatPinnedSchema, parsePinnedSchema } from "./pinned-schema.js";
import { outputSchema, withSourceFields } from "./output-schema.js";
import { defaultComponents } from "../components/environment.js";
import { transformColumns } from "../components/registry.js";

describe("pinned schema document", () => {
  const columns = outputSchema(
    withSourceFields([
      { name: "_id", type: "string" },
      { name: "@timestamp", type: "timestamp" },
      { name: "job.execution_time.elapsed", type: "double" },
    ]),
    { naming: "snake_case" },
  );

  it("records name, type, nullability and source field, one column per line", () => {
    const text = formatPinnedSchema(columns);
    expect(text).toBe(
      [
        "{",
        '  "version": 1,',
        '  "columns": [',
        '    {"name":"_id","type":"string","nullable":false,"source":"_id"},',
        '    {"name":"timestamp","type":"timestamp","nullable":true,"source":"@timestamp"},',
        '    {"name":"job_execution_time_elapsed","type":"double","nullable":true,"source":"job.execution_time.elapsed"}',
        "  ]",
        "}",
        "",
      ].join("\n"),
    );
    expect(parsePinnedSchema(text, "schema.json")).toEqual({ version: 1, columns });
  });

  it("follows a source field through rename and flatten; a column add creates has none", () => {
    const result = transformColumns(
      defaultComponents().transforms,
      [
        { type: "flatten", config: { separator: "_" } },
        { type: "rename", config: { job_execution_time_elapsed: "elapsed_s" } },
        { type: "add", config: { exported: { value: "x" } } },
      ] as never,
      withSourceFields([{ name: "job.execution_time.elapsed", type: "double" }]),
    );
    expect(outputSchema(result.columns, { naming: "as_is" })).toEqual([
      { name: "elapsed_s", type: "double", nullable: true, source: "job.execution_time.elapsed" },
      { name: "exported", type: "string", nullable: true, source: null },
    ]);
  });

  it("names the file and the problem when a document is not a schema", () => {
    expect(() => parsePinnedSchema("{", "jobs.schema.json")).toThrow(/^jobs\.schema\.json: not JSON/);
    expect(() =>
      parsePinnedSchema(
        '{"version":1,"columns":[{"name":"a","type":"text","nullable":true,"source":null}]}',
        "s.json",
      ),
    ).toThrow(/^s\.json: columns\.0\.type: /);
    expect(() =>
      parsePinnedSchema(
        '{"version":1,"columns":[{"name":"a","type":"string","nullable":true,"source":null},{"name":"a","type":"int64","nullable":true,"source":null}]}',
        "s.json",
      ),
    ).toThrow('s.json: column "a" appears twice');
    expect(() =>
      parsePinnedSchema(
        '{"version":1,"columns":[{"name":"a\\u0000b","type":"string","nullable":true,"source":null}]}',
        "s.json",
      ),
    ).toThrow('s.json: column "a\\u0000b" holds a control character, which no table definition takes');
  });

  it("reads and writes the time a removed field's column was first missed", () => {
    const columns = [
      {
        name: "a",
        type: "string" as const,
        nullable: true,
        source: "a",
        removed_at: "2026-11-01T00:00:00.000Z",
      },
    ];
    const text = formatPinnedSchema(columns);
    expect(text).toContain('"removed_at":"2026-11-01T00:00:00.000Z"');
    expect(parsePinnedSchema(text, "s.json").columns).toEqual(columns);
    expect(() => parsePinnedSchema(text.replace("2026-11-01T00:00:00.000Z", "soon"), "s.json")).toThrow(
      "s.json: columns.0.removed_at: expected an ISO 8601 time",
    );
  });
});
