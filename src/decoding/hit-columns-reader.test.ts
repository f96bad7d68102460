// The hit columns reader gives, for every hit it reads, exactly what the JSON.parse path gives (parse,
// hitAsRow, the column readers, the Parquet coercers, unknownFields), on the emulator's records of
// every kind and on generated hostile hits; and it refuses every text that is not one valid hit.
import { Buffer } from "node:buffer";
import { describe, expect, it } from "vitest";
import { V3_HITS, v2HitArray } from "../api/hit-arrays.js";
import { KIND_FIELDS } from "../api/wire/fields.js";
import { columnsFromMappings } from "../core/columns-from-mappings.js";
import type { Column, ColumnType } from "../core/contracts.js";
import { generateSource, HOUR_MS, indexName, recordId, recordTime } from "../emulator/generator.js";
import { mappingFields } from "../emulator/mappings.js";
import type { GeneratedKind } from "../emulator/generated-kind.js";
import { createStream } from "../emulator/streams.js";
import { hitColumns, tableMappings } from "../kinds/hit-columns.js";
import { hitAsRow } from "../kinds/source-spec.js";
import type { HitLike } from "../kinds/row-json.js";
import { fieldTree, unknownFields } from "../pipeline/run/report-unknown-fields.js";
import type { ColumnValue as ParquetValue } from "../core/record-batch.js";
import { createColumnReader } from "../formats/column-value.js";
import { HitColumnsReader } from "./hit-columns-reader.js";
import { parquetColumnCoercers, parquetCoercers } from "../formats/parquet/coercers.js";
import { createRandom } from "../emulator/random.js";
import { parseJson } from "./json-exact.js";
import { hasCode } from "../errors.js";

interface Expected {
  values: ParquetValue[];
  id: string;
  index: string;
  unknown: string[];
}

/**
 * What the parsed path gives for a hit (JSON.parse with exact integers, as hit-stream.ts parses), or
 * undefined when its hit check refuses it; "refused" when a column refuses a value (the integer rule).
 */
function parsePath(text: string, columns: readonly Column[], v3: boolean): Expected | "refused" | undefined {
  const hit = parseJson(text);
  const accepts = (v3 ? V3_HITS : v2HitArray("logs")).accepts(hit);
  if (!accepts) return undefined;
  const { _id: id, _index: index } = hit as HitLike;
  const row = hitAsRow(hit as HitLike);
  const names = new Set(columns.map((column) => column.name));
  let values: ParquetValue[];
  try {
    values = columns.map((column) => parquetCoercers[column.type](createColumnReader(column)(row)));
  } catch (error) {
    if (hasCode(error, "SINK_VALUE_NOT_INT64") || hasCode(error, "SINK_VALUE_NOT_INT32")) return "refused";
    throw error;
  }
  return {
    values,
    id,
    index,
    // A name given twice (a nested `x.y` and a literal key "x.y" both unknown) is one field to the
    // report, which keeps names in a set; the reader names each once.
    unknown: [...new Set(unknownFields(row, names, fieldTree(names)))].sort(),
  };
}

/**
 * One reader per column set and hit version, reused from hit to hit as an output file would (its
 * string table, its per-key marks and its day cache carry over), so a hit read after others, or after
 * one refused midway, is read as if it were the first.
 */
const readers = new WeakMap<readonly Column[], Map<boolean, HitColumnsReader>>();
function readerFor(columns: readonly Column[], v3: boolean): HitColumnsReader {
  let byVersion = readers.get(columns);
  if (byVersion === undefined) readers.set(columns, (byVersion = new Map()));
  let reader = byVersion.get(v3);
  if (reader === undefined)
    byVersion.set(v3, (reader = new HitColumnsReader(columns, v3, parquetColumnCoercers)));
  return reader;
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * Reads `text` placed between other bytes, and checks it against the parsed path: true when it was
 * read as that path reads it, or declined where that path's column refuses a value.
 */
function expectSameAsParse(text: string, columns: readonly Column[], v3: boolean): boolean {
  const body = Buffer.from(`[{"x":1},${text},{"y":2}]`);
  const start = body.indexOf(text.length > 0 ? Buffer.from(text) : Buffer.alloc(0), 9);
  const into = columns.map((): ParquetValue[] => ["earlier"]);
  const read = readerFor(columns, v3).read(body, start, start + Buffer.byteLength(text), into);
  if (read.failure !== undefined) {
    expect(into.every((values) => values.length === 1)).toBe(true);
    // Declined, as it must be, where a column of the parsed path refuses a value (int64's rule).
    return isJson(text) && parsePath(text, columns, v3) === "refused";
  }
  const expected = parsePath(text, columns, v3);
  expect(expected, text).toBeDefined();
  // A value the parsed path's column refuses is one the reader must decline, not write.
  expect(expected, text).not.toBe("refused");
  if (expected === undefined || expected === "refused") return true;
  expect(read.id).toBe(expected.id);
  expect(read.index).toBe(expected.index);
  expect([...read.unknownFields].sort(), text).toEqual(expected.unknown);
  columns.forEach((column, c) => {
    const got = into[c]?.[1];
    // Object.is: -0 and 0 differ in a double column.
    if (!Object.is(got, expected.values[c]))
      expect({ column: column.name, got }, text).toEqual({ column: column.name, got: expected.values[c] });
  });
  return true;
}

const KINDS: readonly GeneratedKind[] = ["jobs", "tickets", "workloads", "logs", "metrics"];
const APP_TYPES = ["ec2", "caas", "kubernetes", "serverless"];

describe("the emulator's records of every kind", () => {
  for (const kind of KINDS) {
    it(`${kind}: every column as the JSON.parse path gives it`, () => {
      const columns = hitColumns(columnsFromMappings(tableMappings(KIND_FIELDS[kind])), {});
      const hour = Math.floor(Date.parse("2026-03-01T05:00:00Z") / HOUR_MS);
      let read = 0;
      for (const appType of APP_TYPES) {
        const scope =
          appType === "serverless" && kind === "logs" ? ["group", "tenant", "prod"] : ["a.example"];
        const stream = createStream(7, kind, "atr", appType, scope);
        const exported = hitColumns(columnsFromMappings(mappingFields(kind, appType)), {});
        for (let i = 0; i < 150; i++) {
          const ts = recordTime(hour, 150, i);
          const id = recordId(stream, hour, i);
          const hit = {
            _index: indexName(stream, hour),
            _id: id,
            _score: null,
            _source: generateSource(stream, hour, i, ts, id),
            sort: [ts, i],
          };
          const compact = JSON.stringify(hit);
          if (expectSameAsParse(compact, columns, true)) read++;
          // The columns the exporter derives from this app type's mappings.
          if (expectSameAsParse(compact, exported, true)) read++;
          // The same hit indented, and without the projection of some columns: fields no column holds.
          if (expectSameAsParse(JSON.stringify(hit, null, i % 3), columns.slice(0, 6), true)) read++;
        }
      }
      expect(read).toBe(APP_TYPES.length * 450);
    });
  }
});

/** The emulator's seeded generator (mulberry32), so a failing hit can be found again. */
const randomFrom = createRandom;

const NUMBERS = [
  "0",
  "-0",
  "1",
  "-1",
  "0.5",
  "1e400",
  "-1e400",
  "1e-400",
  "4.9e-324",
  "2.2250738585072014e-308",
  "1.7976931348623157e308",
  "9007199254740991",
  "9007199254740993",
  "123456789012345",
  "1234567890123456",
  "-9223372036854775808",
  "9223372036854775807",
  "9223372036854775808",
  "18446744073709551616",
  "123456789012345678901234567890",
  "1E2",
  "1e+2",
  "2.5E-3",
  "-0.0",
  "0e0",
  "1772341200000",
  "1.5e12",
  "2147483647",
  "2147483648",
  "-2147483649",
  "3.99",
  "-3.99",
  "100000000000000000000000",
];

const STRINGS = [
  "",
  "a",
  "2026-03-01T05:00:00Z",
  "2026-03-01T05:00:00.123Z",
  "2026-02-30T00:00:00.000Z",
  "2026-03-01T24:00:00Z",
  "0099-01-01T00:00:00Z",
  "1772341200000",
  " 42 ",
  "4.5",
  "1e3",
  "-7",
  "true",
  "FALSE",
  "0",
  "1",
  "yes",
  "NaN",
  "Infinity",
  "9223372036854775808",
  "éü",
  "日本語",
  "😀",
  "\ud800",
  "\udc00x",
  "a\u2028b",
  "\u0000",
  "\u001f",
  'quote " and \\ backslash',
  "/",
  "line\nbreak\ttab",
  '{"not":"json"}',
  "x".repeat(300),
];

/** Column names that meet: nested and flat, inherited names, names that repeat with two types. */
const COLUMN_NAMES = [
  "_id",
  "_index",
  "s",
  "n",
  "t",
  "a",
  "a.b",
  "a.b.c",
  "x.y",
  "x.y.z",
  "__proto__",
  "constructor",
  "c.__proto__",
  "toString",
  "é.ü",
  "_id.x",
  "deep.er.est.leaf",
  "k",
  "",
];
const TYPES: readonly ColumnType[] = ["string", "json", "double", "int64", "int32", "boolean", "timestamp"];
const KEYS = [
  ...new Set([...COLUMN_NAMES.flatMap((name) => [name, ...name.split(".")]), "other", "b", "c", "z"]),
];

function generatedColumns(random: () => number): Column[] {
  const columns = COLUMN_NAMES.filter(() => random() < 0.8).map((name) => ({
    name,
    type: TYPES[Math.floor(random() * TYPES.length)] as ColumnType,
  }));
  // A name the mappings list with two types stays two columns.
  columns.push({ name: "s", type: TYPES[Math.floor(random() * TYPES.length)] as ColumnType });
  return columns;
}

/** A JSON string of `text`, escaped in one of the ways JSON allows. */
function stringText(text: string, random: () => number): string {
  const plain = JSON.stringify(text);
  const style = random();
  if (style < 0.6) return plain;
  if (style < 0.8)
    return plain.replace(/[^\x20-\x7e]/gu, (c) =>
      c
        .split("")
        .map((u) => `\\u${u.charCodeAt(0).toString(16).padStart(4, "0")}`)
        .join(""),
    );
  const escapes = ["\\/", "\\u0041", "\\n", "\\\\", '\\"', "\\ud83d\\ude00", "\\uDBFF", "\\b\\f\\r\\t"];
  return `${plain.slice(0, -1)}${escapes[Math.floor(random() * escapes.length)] ?? ""}"`;
}

function space(random: () => number): string {
  return random() < 0.8 ? "" : ([" ", "\n", "\t", "\r\n  "][Math.floor(random() * 4)] ?? "");
}

function pick<T>(random: () => number, list: readonly T[]): T {
  return list[Math.floor(random() * list.length)] as T;
}

function valueText(random: () => number, depth: number): string {
  const choice = random();
  if (choice < 0.25) return stringText(pick(random, STRINGS), random);
  if (choice < 0.45) return pick(random, NUMBERS);
  if (choice < 0.55) return pick(random, ["true", "false", "null"]);
  if (depth > 5 || choice < 0.62)
    return random() < 0.5 ? `${Math.floor(random() * 1e6)}` : `${random() * 1e3}`;
  if (choice < 0.72) {
    const items = Array.from(
      { length: Math.floor(random() * 4) },
      () => space(random) + valueText(random, depth + 1),
    );
    return `[${items.join(",")}${space(random)}]`;
  }
  return objectText(random, depth + 1);
}

function objectText(random: () => number, depth: number): string {
  const members = Array.from({ length: Math.floor(random() * 6) }, () => {
    // Keys repeat on purpose: JSON.parse keeps the last value, at the first one's place.
    const key = random() < 0.9 ? pick(random, KEYS) : pick(random, STRINGS);
    return `${space(random)}${stringText(key, random)}${space(random)}:${space(random)}${valueText(random, depth)}`;
  });
  return `{${members.join(",")}${space(random)}}`;
}

function hostileHit(random: () => number, v3: boolean): string {
  const members = [
    `"_index":${stringText(pick(random, ["logs-atr-ec2-2026.03.01", "é", "a\\u0000b"]), random)}`,
    `"_id":${stringText(pick(random, STRINGS), random)}`,
    `"_source":${objectText(random, 2)}`,
  ];
  if (v3 || random() < 0.5) members.push(`"_score":${pick(random, ["null", "1.5", "0", "-0", "3e2"])}`);
  if (v3) members.push(`"sort":[${pick(random, ["", "1772341200000,12", '"a",null,-0.5', "null"])}]`);
  if (random() < 0.2) members.push(`"_type":${valueText(random, 1)}`);
  members.sort(() => random() - 0.5);
  return `${space(random)}{${members.map((member) => space(random) + member).join(",")}${space(random)}}${space(random)}`;
}

describe("generated hostile hits", () => {
  for (const v3 of [true, false]) {
    it(`v${v3 ? 3 : 2}: what is read equals the JSON.parse path, and valid hits are read`, () => {
      const random = randomFrom(v3 ? 20 : 21);
      let read = 0;
      for (let round = 0; round < 60; round++) {
        const columns = generatedColumns(random);
        for (let i = 0; i < 60; i++) {
          const text = hostileHit(random, v3);
          expect(expectSameAsParse(text, columns, v3), text).toBe(true);
          read++;
          // The same hit cut short, refused midway by the same reader, before the next hit.
          const cut = text.trimEnd().slice(0, Math.floor(random() * text.trimEnd().length));
          expect(expectSameAsParse(cut, columns, v3), cut).toBe(false);
        }
      }
      expect(read).toBe(3600);
    });
  }

  it("reads duplicate keys, flat and nested names and null against missing as JSON.parse does", () => {
    const columns: Column[] = [
      { name: "_id", type: "string" },
      { name: "a.b", type: "json" },
      { name: "a", type: "json" },
      { name: "n", type: "string" },
      { name: "m", type: "boolean" },
      { name: "__proto__", type: "string" },
      { name: "x.constructor", type: "int64" },
    ];
    const cases = [
      '{"_index":"i","_id":"h","_source":{"a":{"b":1,"q":2},"a":{"c":3}}}',
      '{"_index":"i","_id":"h","_source":{"a":{"b":1},"a":5,"a.b":null}}',
      '{"_index":"i","_id":"h","_source":{"a.b":{"z":[1,{"y":2}]},"a":{"b":"nested"}}}',
      '{"_index":"i","_id":"h","_source":{"n":null,"_id":"theirs","_index":{"x":1},"__proto__":{"p":1}}}',
      '{"_index":"i","_id":"h","_source":{"x":{"constructor":"12","toString":1},"other":{"k":1},"other":2}}',
      '{"_index":"i","_id":"h","_source":{"\\u0061":{"\\u0062":"escaped keys"},"\\u005f\\u0069\\u0064":1}}',
      '{"_index":"i","_id":"h","_source":{"m":"TRUE","unknown":{"deep":{"deeper":1}},"unknown":[1]}}',
      '{"_index":"i","_id":"h","_source":{"x":{"y":1,"constructor":2},"x.y":3}}',
    ];
    for (const text of cases) expect(expectSameAsParse(text, columns, false), text).toBe(true);
  });
});

describe("keys guessed from the hit before", () => {
  it("reads hits whose keys change order, lengthen, escape or vanish as JSON.parse does", () => {
    const columns: Column[] = [
      { name: "_id", type: "string" },
      { name: "job.id", type: "string" },
      { name: "job.state", type: "string" },
      { name: "job", type: "json" },
      { name: 'say "hi"', type: "string" },
      { name: "ü", type: "int64" },
      { name: "t", type: "timestamp" },
    ];
    const source = (body: string): string => `{"_index":"i","_id":"h","_source":${body}}`;
    // Each hit is read after the one before it by the same reader, so the keys it guesses are those
    // the hit before had in that place.
    const sequence = [
      '{"job":{"id":"a","state":"DONE"},"ü":1,"t":"2026-03-01T00:00:00Z"}',
      '{"job":{"id":"b","state":"DONE"},"ü":2,"t":"2026-03-01T00:00:01Z"}',
      '{"job":{"state":"FAILED","id":"c"},"t":"2026-03-01T00:00:02Z","ü":3}',
      '{"jobs":{"id":"d"},"job":{"ids":"x","id":"d2","stat":"?"},"ü":4}',
      '{"j\u006fb":{"\u0069d":"e","state":"DONE"},"\u00fc":5}',
      '{"job":{"id":"f","state":"DONE","id":"f2"},"job":{"state":"REDONE"}}',
      '{"say \\"hi\\"":"quoted","job":{"id":"g"},"job.id":"flat"}',
      '{"job":{"id":"h","state":"DONE"},"_id":"theirs","ü":6}',
      '{"job":{"id":"i","state":"DONE"},"ü":7,"t":"2026-03-01T00:00:03Z"}',
      '{"job":{"id":"j"}}',
      '{"job":{"id":"k","state":"DONE"},"ü":8,"t":"2026-03-01T00:00:04Z"}',
    ];
    for (const body of sequence) expect(expectSameAsParse(source(body), columns, false), body).toBe(true);
  });
});

describe("texts that do not repeat", () => {
  it("are read as JSON.parse reads them, past the misses that take a column off the text cache and back", () => {
    const columns: Column[] = [
      { name: "id", type: "string" },
      { name: "state", type: "string" },
    ];
    const states = ["DONE", "FAILED", "RUNNING"];
    // Runs of new ids long enough to take the column off the cache, then values that repeat, then
    // texts the uncached read declines (escapes, wide characters, longer than the cache's) or that are
    // no text at all, each in the middle of a run of new ids.
    const ids = (i: number): string => {
      if (i % 997 === 500) return "\\u0061\\n";
      if (i % 991 === 600) return "é-wide";
      if (i % 983 === 700) return "x".repeat(60);
      return i >= 6000 && i < 7000 ? `again-${i % 4}` : `0alou8l-ajvc-${i}`;
    };
    for (let i = 0; i < 10_000; i++) {
      const id = i % 1009 === 800 ? "null" : `"${ids(i)}"`;
      const text = `{"_index":"i","_id":"h${i}","_source":{"id":${id},"state":"${states[i % 3]}"}}`;
      if (!expectSameAsParse(text, columns, false)) expect.fail(text);
    }
  });
});

const HIT = '{"_index":"i","_id":"h","_score":null,"_source":{"s":"x"},"sort":[1]}';

/** Texts that are not one JSON value: JSON.parse throws on each, and the reader refuses each. */
const NOT_JSON: readonly string[] = [
  "",
  " ",
  HIT.slice(0, -1),
  HIT.slice(0, 30),
  `${HIT}x`,
  `${HIT}{}`,
  `${HIT},`,
  HIT.replace('"x"', "NaN"),
  HIT.replace('"x"', "Infinity"),
  HIT.replace('"x"', "-"),
  HIT.replace('"x"', "01"),
  HIT.replace('"x"', "1."),
  HIT.replace('"x"', ".5"),
  HIT.replace('"x"', "1e"),
  HIT.replace('"x"', "+1"),
  HIT.replace('"x"', "0x10"),
  HIT.replace('"x"', "tru"),
  HIT.replace('"x"', "nul"),
  HIT.replace('"x"', "True"),
  HIT.replace('"x"', "'x'"),
  HIT.replace('"x"', '"x" /* c */'),
  HIT.replace('"x"', '"x" // c\n'),
  HIT.replace('"x"', '"a\tb"'),
  HIT.replace('"x"', '"a\nb"'),
  HIT.replace('"x"', '"a\u0000b"'),
  HIT.replace('"x"', '"\\x41"'),
  HIT.replace('"x"', '"\\u12"'),
  HIT.replace('"x"', '"\\u12G4"'),
  HIT.replace('"x"', '"\\a"'),
  HIT.replace('"x"', "[1,]"),
  HIT.replace('"x"', "{,}"),
  HIT.replace('"x"', '{"a":1,}'),
  HIT.replace('"x"', '{"a" 1}'),
  HIT.replace('"x"', "{a:1}"),
  HIT.replace('"x"', "[1 2]"),
  HIT.replace('"x"', "[1}"),
  HIT.replace('"s"', "s"),
  HIT.replace(',"sort"', ' "sort"'),
  HIT.replace("null", "undefined"),
  HIT.replace('"x"', "\u00a0 1"),
  HIT.replace('"x"', `${"[".repeat(20)}${"]".repeat(19)}`),
];

/** Bytes that are not UTF-8: the JSON.parse path would read U+FFFD; the reader leaves them to it. */
const NOT_UTF8: readonly number[][] = [
  [0xff],
  [0xc0, 0xaf],
  [0xe0, 0x80, 0xaf],
  [0xed, 0xa0, 0x80],
  [0xf4, 0x90, 0x80, 0x80],
  [0xc3],
  [0xe6, 0x97],
  [0x80],
];

/** Valid JSON the reader leaves to the JSON.parse path: the hit check or the reader's own limits refuse it. */
const REFUSED_HITS: readonly [string, boolean][] = [
  ['{"_index":"i","_id":"h","_source":{}}', true], // v3 without _score and sort
  ['{"_index":"i","_id":"h","_score":null,"_source":{}}', true], // v3 without sort
  ['{"_index":"i","_id":"h","_score":"1","_source":{},"sort":[]}', true],
  ['{"_index":"i","_id":"h","_score":1e400,"_source":{},"sort":[]}', true],
  ['{"_index":"i","_id":"h","_score":null,"_source":{},"sort":[true]}', true],
  ['{"_index":"i","_id":"h","_score":null,"_source":{},"sort":[1e999]}', true],
  ['{"_index":"i","_id":"h","_score":null,"_source":{},"sort":{}}', true],
  ['{"_index":1,"_id":"h","_source":{}}', false],
  ['{"_index":"i","_id":null,"_source":{}}', false],
  ['{"_index":"i","_id":"h","_source":[]}', false],
  ['{"_index":"i","_id":"h","_source":null}', false],
  ['{"_index":"i","_id":"h"}', false],
  ["[]", false],
  [`[${HIT}]`, true],
  ['"hit"', false],
  [`{"_index":"i","_id":"h","_source":{"a":${"[".repeat(600)}${"]".repeat(600)}}}`, false],
  [`{"_index":"i","_id":"h","_source":${'{"a":'.repeat(600)}1${"}".repeat(600)}}`, false],
];

describe("refused bytes", () => {
  const columns: Column[] = [{ name: "s", type: "string" }];
  const refuses = (bytes: Uint8Array, v3: boolean): string | undefined => {
    const into: ParquetValue[][] = [[]];
    const read = readerFor(columns, v3).read(bytes, 0, bytes.length, into);
    expect(into[0]).toEqual([]);
    return read.failure;
  };

  it.each(NOT_JSON.map((text) => [text]))("not JSON: %j", (text) => {
    expect(() => JSON.parse(text) as unknown).toThrow();
    expect(refuses(Buffer.from(text), true)).toEqual(expect.any(String));
  });

  it.each(NOT_UTF8.map((bytes) => [bytes]))("not UTF-8 in a string: %j", (bytes) => {
    const [before, after] = HIT.split("x");
    const text = new Uint8Array([...Buffer.from(before ?? ""), ...bytes, ...Buffer.from(after ?? "")]);
    expect(refuses(text, true)).toBe("a string is not UTF-8");
    // In a key or a skipped value too.
    const key = new Uint8Array([
      ...Buffer.from('{"_index":"i","_id":"h","_source":{"'),
      ...bytes,
      ...Buffer.from('":1}}'),
    ]);
    expect(refuses(key, false)).toBe("a string is not UTF-8");
  });

  it.each(REFUSED_HITS.map(([text, v3]) => [text.slice(0, 70), text, v3] as const))(
    "left to the JSON.parse path: %s",
    (_title, text, v3) => {
      expect(refuses(Buffer.from(text), v3)).toEqual(expect.any(String));
    },
  );

  // The one walk of a hit's fields (hit-walk.ts) reads the hit's own keys as JSON.parse does: these
  // were declined before it, and each is now read, the last of a repeated key counting.
  it.each([
    ['{"_index":"i","_id":"h","_source":{"s":"v"},"_id":"again"}', false],
    ['{"_index":"i","_\\u0069d":"h","_source":{"s":"v"}}', false],
    ['{"_index":"first","_id":"h","_index":"last","_source":{"s":"v"}}', false],
    ['{"_index":"i","_id":"h","_source":{"s":"first","t":1},"_source":{"s":"last"}}', false],
    ['{"_index":"i","_id":"h","_source":{"s":"first"},"_source":{"t":2}}', false],
    ['{"_index":"i","_id":"h","_score":1,"_score":null,"_source":{"s":"v"},"sort":["x"],"sort":[1]}', true],
  ] as const)("a hit key given twice or with escapes, read as JSON.parse reads it: %s", (text, v3) => {
    const read = readerFor(columns, v3).read(Buffer.from(text), 0, Buffer.byteLength(text), [[]]);
    expect(read.failure).toBeUndefined();
    expect(expectSameAsParse(text, columns, v3)).toBe(true);
  });

  it("reads a hit nested as deep as it allows, from a plain Uint8Array", () => {
    const deep = `{"_index":"i","_id":"h","_source":{"s":"v","a":${"[".repeat(509)}${"]".repeat(509)}}}`;
    const into: ParquetValue[][] = [[]];
    const read = new HitColumnsReader(columns, false, parquetColumnCoercers).read(
      new Uint8Array(Buffer.from(deep)),
      0,
      deep.length,
      into,
    );
    expect(read.failure).toBeUndefined();
    expect(into[0]).toEqual(["v"]);
    expect([...read.unknownFields].sort()).toEqual(["_id", "_index", "a"]);
  });
});
