import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ColumnType } from "./contracts.js";
import {
  columnsFromMappings,
  mappingTypeToColumnType,
  readMappings,
  widerColumnType,
} from "./columns-from-mappings.js";

describe("columnsFromMappings", () => {
  it("maps the service's types", () => {
    expect(
      ["keyword", "text", "date", "float", "long", "integer", "boolean", "alias", "geo_shape"].map(
        mappingTypeToColumnType,
      ),
    ).toEqual(["string", "string", "timestamp", "double", "int64", "int32", "boolean", "string", "string"]);
  });

  it("drops multi-field companions whose parent is mapped, and keeps the rest", () => {
    expect(
      columnsFromMappings([
        { name: "job.name", type: "keyword" },
        { name: "job.name.text", type: "text" },
        { name: "message", type: "text" },
        { name: "message.keyword", type: "keyword" },
        { name: "orphan.keyword", type: "keyword" },
        { name: "@timestamp", type: "date" },
      ]),
    ).toEqual([
      { name: "job.name", type: "string" },
      { name: "message", type: "string" },
      { name: "orphan.keyword", type: "string" },
      { name: "@timestamp", type: "timestamp" },
    ]);
  });

  it("reads no JavaScript built-in for a type named constructor or __proto__", () => {
    for (const type of ["constructor", "__proto__", "toString", "hasOwnProperty"])
      expect(mappingTypeToColumnType(type)).toBe("string");
  });

  it("writes a field mapped as integer and as long as one int64 column, whichever comes first", () => {
    for (const types of [
      ["integer", "long"],
      ["long", "integer"],
    ])
      expect(columnsFromMappings(types.map((type) => ({ name: "n", type })))).toEqual([
        { name: "n", type: "int64" },
      ]);
  });
});

describe("a field the combined mappings give two types: one column that holds both", () => {
  const columnOf = (...types: string[]) => readMappings(types.map((type) => ({ name: "f", type })));

  it("regression, v1 logs: timestamp as alias in one app type and date in the other is one timestamp column, not a collision", () => {
    for (const types of [
      ["alias", "date"],
      ["date", "alias"],
    ])
      expect(columnOf(...types)).toEqual({
        columns: [{ name: "f", type: "timestamp" }],
        widened: [{ name: "f", types, column: "timestamp" }],
      });
  });

  it.each([
    [["long", "keyword"], "string"],
    [["integer", "long"], "int64"],
    [["integer", "float"], "double"],
    // A double rounds an int64 past 2^53 and an int64 drops a fraction: only text keeps both exact.
    [["float", "long"], "string"],
    [["long", "float"], "string"],
    [["object", "keyword"], "json"],
    [["long", "object"], "json"],
    [["boolean", "long"], "string"],
    [["date", "keyword"], "string"],
    [["alias", "long", "integer"], "int64"],
    [["alias"], "string"],
  ])("%j → %s, in the place of the field's first entry", (types, column) => {
    const { columns, widened } = readMappings([
      { name: "a", type: "keyword" },
      ...types.map((type) => ({ name: "f", type })),
      { name: "z", type: "date" },
    ]);
    expect(columns).toEqual([
      { name: "a", type: "string" },
      { name: "f", type: column },
      { name: "z", type: "timestamp" },
    ]);
    expect(widened).toEqual(types.length > 1 ? [{ name: "f", types, column }] : []);
  });

  it("keeps two different fields two columns, and says nothing of a field mapped once", () => {
    expect(
      readMappings([
        { name: "n", type: "long" },
        { name: "m", type: "keyword" },
      ]),
    ).toEqual({
      columns: [
        { name: "n", type: "int64" },
        { name: "m", type: "string" },
      ],
      widened: [],
    });
  });

  // What a column type holds exactly, written out apart from the code: a value of the inner type is
  // read back from the outer column as it was sent.
  const HOLDS: Readonly<Record<ColumnType, readonly ColumnType[]>> = {
    json: ["json", "string", "double", "int64", "int32", "boolean", "timestamp"],
    string: ["string", "double", "int64", "int32", "boolean", "timestamp"],
    double: ["double", "int32"],
    int64: ["int64", "int32"],
    int32: ["int32"],
    boolean: ["boolean"],
    timestamp: ["timestamp"],
  };
  const COLUMN_TYPES = Object.keys(HOLDS) as ColumnType[];
  const holds = (outer: ColumnType, inner: ColumnType): boolean => HOLDS[outer].includes(inner);
  const MAPPING_TYPES = [
    "keyword",
    "text",
    "date",
    "float",
    "long",
    "integer",
    "boolean",
    "alias",
    "object",
    "nested",
    "geo_point",
    "short",
    "double",
    "unsigned_long",
    "constructor",
  ];

  it("for any mapping types, in any order: one column of the narrowest type that holds every one of them", () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...MAPPING_TYPES), { minLength: 1, maxLength: 5 }),
        fc.context(),
        (types, context) => {
          const { columns } = columnOf(...types);
          context.log(JSON.stringify(columns));
          expect(columns).toHaveLength(1);
          const column = columns[0]?.type as ColumnType;
          const typed = types.filter((type) => type !== "alias");
          const inner = (typed.length === 0 ? types : typed).map(mappingTypeToColumnType);
          expect(inner.every((type) => holds(column, type))).toBe(true);
          // The narrowest: every type that holds them all holds the chosen one.
          for (const candidate of COLUMN_TYPES)
            if (inner.every((type) => holds(candidate, type))) expect(holds(candidate, column)).toBe(true);
          expect(columnOf(...[...types].reverse()).columns).toEqual(columns);
        },
      ),
    );
  });

  it("widerColumnType is a join: order and grouping do not change it", () => {
    const type = fc.constantFrom(...COLUMN_TYPES);
    fc.assert(
      fc.property(type, type, type, (a, b, c) => {
        expect(widerColumnType(a, b)).toBe(widerColumnType(b, a));
        expect(widerColumnType(widerColumnType(a, b), c)).toBe(widerColumnType(a, widerColumnType(b, c)));
      }),
    );
  });

  it("two different fields stay two columns whatever their types", () => {
    fc.assert(
      fc.property(fc.constantFrom(...MAPPING_TYPES), fc.constantFrom(...MAPPING_TYPES), (first, second) => {
        const { columns } = readMappings([
          { name: "x", type: first },
          { name: "y", type: second },
        ]);
        expect(columns.map((column) => column.name)).toEqual(["x", "y"]);
      }),
    );
  });
});
