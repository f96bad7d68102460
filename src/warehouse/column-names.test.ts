import { describe, expect, it } from "vitest";
import {
  columnCollisions,
  collisionMessage,
  columnName,
  SAFE_COLUMN_NAME,
  snakeCaseName,
} from "./column-names.js";

describe("snakeCaseName", () => {
  it.each([
    ["@timestamp", "timestamp"],
    ["job.execution_time.elapsed", "job_execution_time_elapsed"],
    ["logLevel", "log_level"],
    ["regex.extractions.logLevel", "regex_extractions_log_level"],
    ["HTTPStatus", "http_status"],
    ["_id", "_id"],
    ["2xx.count", "_2xx_count"],
    ["message.keyword", "message_keyword"],
    ["a--b  c", "a_b_c"],
    ["trailing.", "trailing"],
    ["@", "_"],
    ["Ünïcode", "_n_code"],
  ])("%s → %s", (input, expected) => {
    expect(snakeCaseName(input)).toBe(expected);
    expect(snakeCaseName(input)).toMatch(SAFE_COLUMN_NAME);
  });

  it("is stable: a safe name is left as it is", () => {
    for (const name of ["timestamp", "job_id", "_index", "a1_b2"]) expect(snakeCaseName(name)).toBe(name);
  });
});

describe("columnCollisions", () => {
  const columns = [
    { name: "a.b", type: "string" as const },
    { name: "a_b", type: "int64" as const },
    { name: "@timestamp", type: "timestamp" as const },
    { name: "c", type: "string" as const },
  ];

  it("finds fields that snake_case makes one, and none as_is", () => {
    expect(columnCollisions(columns, "snake_case")).toEqual([{ name: "a_b", columns: ["a.b", "a_b"] }]);
    expect(columnCollisions(columns, "as_is")).toEqual([]);
    expect(columnName("@timestamp", "as_is")).toBe("@timestamp");
  });

  it("names both fields and the ways out", () => {
    const [collision] = columnCollisions(columns, "snake_case");
    expect(collision && collisionMessage(collision)).toBe(
      'column_names: snake_case turns both "a.b" and "a_b" into "a_b"; drop or rename one of them with a transform, or keep column_names: as_is',
    );
  });
});
