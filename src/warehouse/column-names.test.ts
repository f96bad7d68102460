import { describe, expect, it } from "vitest";
import {
  columnCollisions,
  collisionMessage,
  columnName,
  namingRules,
  rulesForColumns,
  snakeCaseName,
} from "./column-names.js";
import { SAFE_COLUMN_NAME } from "../sinks/warehouse-options.js";
import type { ColumnNamingRules } from "./column-names.js";
import type { Column } from "../core/contracts.js";

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

describe("a kind's own names under snake_case", () => {
  const logs = { timestamp: "app_timestamp" };
  const both = [
    { name: "@timestamp", type: "timestamp" as const },
    { name: "timestamp", type: "timestamp" as const },
  ];
  const names = (columns: readonly { name: string }[], rules: ColumnNamingRules) =>
    columns.map((column) => columnName(column.name, rules));

  it("names the kind's field where snake_case would give it another column's name, under snake_case only", () => {
    const snake = rulesForColumns(namingRules({ column_names: "snake_case" }, logs), both);
    expect(names(both, snake)).toEqual(["timestamp", "app_timestamp"]);
    expect(columnCollisions(both, snake)).toEqual([]);
    const asIs = rulesForColumns(namingRules({ column_names: "as_is" }, logs), both);
    expect(names(both, asIs)).toEqual(["@timestamp", "timestamp"]);
  });

  it("keeps the plain name where no other column meets it: an upgrade renames no column that ran before", () => {
    const alone = [{ name: "timestamp", type: "timestamp" as const }];
    expect(names(alone, rulesForColumns(namingRules({ column_names: "snake_case" }, logs), alone))).toEqual([
      "timestamp",
    ]);
    const renamed = [{ name: "event_time", type: "timestamp" as const }, both[1] as Column];
    expect(
      names(renamed, rulesForColumns(namingRules({ column_names: "snake_case" }, logs), renamed)),
    ).toEqual(["event_time", "timestamp"]);
  });

  it("gives way to the sink's own override of the field", () => {
    const rules = rulesForColumns(
      namingRules({ column_names: "snake_case", column_name_overrides: { timestamp: "log_time" } }, logs),
      both,
    );
    expect(names(both, rules)).toEqual(["timestamp", "log_time"]);
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
    expect(columnCollisions(columns, { naming: "snake_case" })).toEqual([
      { name: "a_b", columns: ["a.b", "a_b"], types: ["string", "int64"], naming: "snake_case" },
    ]);
    expect(columnCollisions(columns, { naming: "as_is" })).toEqual([]);
    expect(columnName("@timestamp", { naming: "as_is" })).toBe("@timestamp");
  });

  it("names both fields and the ways out", () => {
    const [collision] = columnCollisions(columns, { naming: "snake_case" });
    expect(collision && collisionMessage(collision)).toBe(
      'column_names: snake_case turns both "a.b" and "a_b" into "a_b"; rename one of them with a transform (rename: { "a_b": <new name> }), or give one its own column with column_name_overrides: { "a_b": <name> }, or keep column_names: as_is',
    );
  });

  it("finds a field listed twice with two types, and a field that takes a fixed column's name", () => {
    const twice = [
      { name: "_id", type: "string" as const },
      { name: "n", type: "int64" as const },
      { name: "n", type: "string" as const },
      { name: "@_id", type: "string" as const },
    ];
    const [duplicate, fixed, ...rest] = columnCollisions(twice, { naming: "snake_case" });
    expect(rest).toEqual([]);
    expect(duplicate && collisionMessage(duplicate)).toBe(
      'the field "n" comes twice (as int64 and as string: a transform adds it again) and one column cannot hold both; drop one with a transform (drop: { fields: ["n"] }) or rename it',
    );
    expect(fixed?.columns).toEqual(["_id", "@_id"]);
    expect(
      columnCollisions(twice, { naming: "snake_case", overrides: new Map([["@_id", "at_id"]]) }),
    ).toHaveLength(1);
    expect(columnCollisions(twice, { naming: "as_is" }).map((collision) => collision.name)).toEqual(["n"]);
    const [mappedId] = columnCollisions([...twice.slice(0, 1), { name: "_id", type: "string" }], {
      naming: "as_is",
    });
    expect(mappedId && collisionMessage(mappedId)).toBe(
      'the service maps a field named "_id" in the records, the name of the hit\'s own column; a record\'s _id and _index are always the hit\'s, so the field cannot be written under that name: name the fields to export in source.fields, without "_id"',
    );
  });
});

describe("snakeCaseName in linear time", () => {
  /** The implementation before: the reference the single pass must agree with. */
  function byPatterns(name: string): string {
    const words = name
      .replace(/^@+/, "")
      .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
      .replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2")
      .toLowerCase()
      .replace(/[^a-z0-9_]+/g, "_");
    const trimmed = words.replace(/_+$/, "");
    const safe = trimmed === "" ? "_" : trimmed;
    return /^[0-9]/.test(safe) ? `_${safe}` : safe;
  }

  it("gives the names the patterns gave, on random names", () => {
    const alphabet = ["a", "b", "Z", "Q", "R", "1", "9", "_", ".", "@", "-", " ", "é", "\u212a", "İ", "x"];
    let seed = 7;
    const next = (): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed);
    for (let round = 0; round < 5000; round++) {
      const length = next() % 14;
      let name = "";
      for (let index = 0; index < length; index++) name += alphabet[next() % alphabet.length];
      expect(snakeCaseName(name), JSON.stringify(name)).toBe(byPatterns(name));
    }
  });

  it("names a long run of capitals or underscores in linear time", () => {
    // The patterns took 1.5 s on each of these 30,000-character names, 17 s at 100,000, minutes at
    // 400,000 (every capital or underscore restarted a backtracking match); one pass takes milliseconds.
    for (const name of ["A".repeat(30_000), `a${"_".repeat(30_000)}b.`, "Ab".repeat(15_000)]) {
      const started = performance.now();
      const named = snakeCaseName(name);
      expect(performance.now() - started).toBeLessThan(250);
      expect(named).toMatch(SAFE_COLUMN_NAME);
    }
    const started = performance.now();
    expect(snakeCaseName("A".repeat(400_000))).toBe("a".repeat(400_000));
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
