import { Buffer } from "node:buffer";
import { describe, expect, it } from "vitest";
import { readHitBytes } from "./hit-bytes.js";
import type { HitShape } from "./hit-walk.js";
import { V3_HITS, v2HitArray } from "../api/hit-arrays.js";
import { MAX_JSON_DEPTH } from "./json-bytes.js";

const SCHEMAS = { hit: v2HitArray("logs").schema, v3Hit: V3_HITS.schema };
const INDEX_KEY = /^(?:0|[1-9]\d*)$/;
const fatalUtf8 = new TextDecoder("utf-8", { fatal: true });

function isUtf8(bytes: Uint8Array): boolean {
  try {
    fatalUtf8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** Deepest bracket nesting outside strings (the hit object itself is 1). */
function nesting(text: string): number {
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === "\\") i++;
    } else if (c === "{" || c === "[") deepest = Math.max(deepest, ++depth);
    else if (c === "}" || c === "]") depth--;
  }
  return deepest;
}

const withoutStrings = (text: string): string => text.replace(/"(?:[^"\\]|\\.)*"/g, '""');

/**
 * The reference: JSON.parse of the decoded text, then the wire schema. Each result of readHitBytes is
 * checked against it; a refusal for invalid UTF-8 or nesting beyond the bound is the documented fallback.
 */
function expectAgreement(bytes: Buffer, shape: HitShape): void {
  const result = readHitBytes(bytes, 0, bytes.length, shape);
  const text = bytes.toString("utf8");
  let parsed: unknown;
  let parses = true;
  try {
    parsed = JSON.parse(text);
  } catch {
    parses = false;
  }
  const fits = parses && SCHEMAS[shape]?.safeParse(parsed).success === true;
  const context = `${shape} ${JSON.stringify(text)}`;
  if (!result.ok) {
    if (result.reason === "syntax") expect(parses, context).toBe(false);
    else if (result.reason === "shape") expect(parses && !fits, context).toBe(true);
    else if (result.reason === "utf8") expect(isUtf8(bytes), context).toBe(false);
    else expect(nesting(text), context).toBeGreaterThan(MAX_JSON_DEPTH);
    if (fits) expect(!isUtf8(bytes) || nesting(text) > MAX_JSON_DEPTH, context).toBe(true);
    return;
  }
  expect(fits, context).toBe(true);
  const hit = parsed as Record<string, unknown>;
  const source = hit._source as Record<string, unknown>;
  expect(result.id, context).toBe(hit._id);
  expect(result.index, context).toBe(hit._index);
  expect(JSON.parse(bytes.toString("utf8", result.sourceStart, result.sourceEnd)), context).toEqual(source);
  const keys = Object.keys(source);
  expect(result.sourceHasIdentityKey, context).toBe(
    Object.hasOwn(source, "_id") || Object.hasOwn(source, "_index"),
  );
  expect(result.sourceHasIndexKey, context).toBe(keys.some((key) => INDEX_KEY.test(key)));
  expect(result.compact, context).toBe(!/[ \t\n\r]/.test(withoutStrings(text)));
}

/** A small seeded generator (mulberry32), so a failure can be replayed. */
function randomSource(seed: number) {
  let state = seed;
  const next = (): number => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const below = (n: number): number => Math.floor(next() * n);
  const pick = <T>(list: readonly T[]): T => list[below(list.length)] as T;
  return { next, below, pick };
}
type Random = ReturnType<typeof randomSource>;

const CHARACTERS = [
  "a",
  "Z",
  " ",
  '"',
  "\\",
  "/",
  "\n",
  "\t",
  "\u0001",
  "\u001f",
  "\u007f",
  "é",
  "日本",
  "😀",
  "\u2028",
  "\ufeff",
  "0",
  "_",
  "\ud800",
  "\udc00",
];
const NUMBERS = [
  "0",
  "-0",
  "1",
  "-17",
  "0.5",
  "1e5",
  "1E+2",
  "-2.5e-3",
  "123456789012345",
  "12345678901234567890",
  "1.7976931348623157e308",
  "1.8e308",
  "1e400",
  "-1e400",
  "5e-324",
  "1e-400",
  "0.000000001",
  "9007199254740993",
];
const KEYS = [
  "_id",
  "_index",
  "_score",
  "_source",
  "sort",
  "0",
  "17",
  "01",
  "-1",
  "1.5",
  "__proto__",
  "name",
  "é",
];

/** The `\\u` escape (four hex digits) of each UTF-16 unit of `char` (a surrogate pair for an emoji), hex in either case. */
const unicodeEscape = (char: string, random: Random): string =>
  Array.from({ length: char.length }, (_, k) => {
    const hex = char.charCodeAt(k).toString(16).padStart(4, "0");
    return `\\u${random.below(2) === 0 ? hex : hex.toUpperCase()}`;
  }).join("");

/** Text of a JSON string holding `value`, each character written raw or escaped at random. */
function stringText(value: string, random: Random): string {
  let text = '"';
  for (const char of value) {
    const code = char.codePointAt(0) ?? 0;
    const escape = char === '"' || char === "\\" || code < 0x20 || random.below(4) === 0;
    if (!escape) text += char;
    else if (random.below(2) === 0) text += unicodeEscape(char, random);
    else text += JSON.stringify(char).slice(1, -1);
  }
  return `${text}"`;
}

const space = (random: Random): string =>
  random.below(8) === 0 ? random.pick([" ", "\n", "\t", "\r\n  "]) : "";

function keyText(key: string, random: Random): string {
  // A field name spelled with an escape is still that field ("_\u0069d" is "_id").
  return random.below(6) === 0
    ? `"${[...key].map((c) => unicodeEscape(c, random)).join("")}"`
    : stringText(key, random);
}

function valueText(random: Random, depth: number): string {
  const kind = random.below(depth > 4 ? 4 : 7);
  if (kind === 0)
    return stringText(
      Array.from({ length: random.below(6) }, () => random.pick(CHARACTERS)).join(""),
      random,
    );
  if (kind === 1) return random.pick(NUMBERS);
  if (kind === 2) return random.pick(["true", "false", "null"]);
  if (kind === 3) return stringText(random.pick(KEYS), random);
  if (kind <= 4)
    return `[${space(random)}${Array.from({ length: random.below(4) }, () => valueText(random, depth + 1)).join(`${space(random)},${space(random)}`)}${space(random)}]`;
  return objectText(
    random,
    depth + 1,
    Array.from({ length: random.below(5) }, () => random.pick(KEYS)),
  );
}

function objectText(
  random: Random,
  depth: number,
  keys: readonly string[],
  values?: (key: string) => string,
): string {
  const members = keys.map(
    (key) =>
      `${keyText(key, random)}${space(random)}:${space(random)}${values?.(key) ?? valueText(random, depth)}`,
  );
  return `{${space(random)}${members.join(`${space(random)},${space(random)}`)}${space(random)}}`;
}

/** Mostly well-formed hits; some fields missing, of the wrong type, or given twice. */
function hitText(random: Random): string {
  const fieldValue = (key: string): string => {
    const wrong = random.below(12) === 0;
    if (wrong) return valueText(random, 1);
    if (key === "_id" || key === "_index")
      return stringText(
        Array.from({ length: random.below(5) }, () => random.pick(CHARACTERS)).join(""),
        random,
      );
    if (key === "_score") return random.pick(["null", ...NUMBERS]);
    if (key === "_source")
      return objectText(
        random,
        2,
        Array.from({ length: random.below(6) }, () => random.pick(KEYS)),
      );
    if (key === "sort")
      return `[${Array.from({ length: random.below(3) }, () => random.pick(["null", '"x"', ...NUMBERS])).join(",")}]`;
    return valueText(random, 1);
  };
  const keys = ["_index", "_id", "_score", "_source", "sort", "other"].filter(() => random.below(10) !== 0);
  if (random.below(4) === 0) keys.push(random.pick(keys.length > 0 ? keys : ["_id"]));
  return `${space(random)}${objectText(random, 1, random.below(3) === 0 ? keys.reverse() : keys, fieldValue)}${space(random)}`;
}

const BYTES = [
  0x2c, 0x7d, 0x5d, 0x22, 0x5c, 0x20, 0x00, 0xff, 0x80, 0xc0, 0xed, 0x78, 0x65, 0x2e, 0x2d, 0x30,
];

function mutated(bytes: Buffer, random: Random): Buffer {
  const at = random.below(bytes.length + 1);
  const kind = random.below(4);
  if (kind === 0) return bytes.subarray(0, at);
  if (kind === 1) return Buffer.concat([bytes.subarray(0, at), bytes.subarray(at + 1)]);
  const inserted = Buffer.from([random.pick(BYTES)]);
  return Buffer.concat([bytes.subarray(0, at), inserted, bytes.subarray(kind === 2 ? at : at + 1)]);
}

describe("readHitBytes agrees with JSON.parse and the hit schema", () => {
  for (const shape of ["hit", "v3Hit"] as const) {
    it(`on generated ${shape}s, well-formed and mutated`, () => {
      const random = randomSource(shape === "hit" ? 7 : 11);
      const outcomes = new Map<string, number>();
      for (let n = 0; n < 4000; n++) {
        const bytes = Buffer.from(hitText(random));
        for (const input of [bytes, mutated(bytes, random)]) {
          expectAgreement(input, shape);
          const result = readHitBytes(input, 0, input.length, shape);
          // Inside a larger buffer, bytes past `end` (a closing quote, brackets) change nothing.
          const framed = Buffer.concat([Buffer.from('[{"'), input, Buffer.from('"}]')]);
          const inFrame = readHitBytes(framed, 3, 3 + input.length, shape);
          const shifted = (at: number): number => (at < 0 ? at : at - 3);
          if (inFrame.ok && result.ok) {
            expect({
              ...inFrame,
              end: shifted(inFrame.end),
            }).toEqual({
              ...result,
              sourceStart: inFrame.sourceStart,
              sourceEnd: inFrame.sourceEnd,
            });
            expect([inFrame.sourceStart - 3, inFrame.sourceEnd - 3]).toEqual([
              result.sourceStart,
              result.sourceEnd,
            ]);
            // Read as a prefix of the rest of the buffer, it is the same hit, closing where it did;
            // whitespace after it is not the hit's, so only that can leave the prefix compact.
            const asPrefix = readHitBytes(framed, 3, framed.length, shape, true);
            expect(asPrefix.ok && { ...asPrefix, compact: inFrame.compact }).toEqual(inFrame);
            if (asPrefix.ok && asPrefix.compact !== inFrame.compact)
              expect(/\s$/.test(input.toString("latin1"))).toBe(true);
          } else expect(inFrame).toEqual(result);
          const outcome = result.ok ? "ok" : result.reason;
          outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
        }
      }
      // The generator reaches every outcome, so the agreement is checked on each.
      for (const outcome of ["ok", "syntax", "shape", "utf8"])
        expect(outcomes.get(outcome) ?? 0).toBeGreaterThan(50);
    });
  }

  it("reads a hit inside a larger buffer, between start and end", () => {
    const hit = '{"_index":"jobs","_id":"j-1","_score":null,"_source":{"a":1},"sort":[1,"j-1"]}';
    const page = Buffer.from(`{"data":{"hits":[${hit},${hit}]}}`);
    const start = page.indexOf(hit);
    const result = readHitBytes(page, start, start + hit.length, "v3Hit");
    expect(result.ok && page.toString("utf8", result.sourceStart, result.sourceEnd)).toBe('{"a":1}');
    expect(readHitBytes(page, start, start + hit.length + 1, "v3Hit")).toEqual({
      ok: false,
      reason: "syntax",
    });
    expect(readHitBytes(new Uint8Array(page), start, start + hit.length, "v3Hit")).toEqual(result);
  });
});

const HIT = '{"_index":"jobs","_id":"j-1","_score":null,"_source":{"a":1},"sort":[1,"j-1"]}';
/** The hit with `_source`'s value replaced. */
const withSource = (source: string): string => HIT.replace('{"a":1}', source);
const withId = (id: string): string => HIT.replace('"j-1",', `${id},`);
const bytesOf = (...parts: (string | number[])[]): Buffer =>
  Buffer.concat(parts.map((part) => (typeof part === "string" ? Buffer.from(part) : Buffer.from(part))));
const inString = (...bytes: number[]): Buffer =>
  bytesOf('{"_index":"jobs","_id":"', bytes, '","_score":null,"_source":{},"sort":[]}');
/** A hit nested `depth` arrays deep inside `_source`: `depth + 2` levels with the hit and `_source`. */
const nested = (depth: number): string => withSource(`{"x":${"[".repeat(depth)}${"]".repeat(depth)}}`);

const HOSTILE: [string, Buffer, "ok" | "syntax" | "shape" | "utf8" | "depth"][] = [
  ["empty", bytesOf(""), "syntax"],
  ["only whitespace", bytesOf(" \n"), "syntax"],
  ["truncated", bytesOf(HIT.slice(0, -1)), "syntax"],
  ["truncated in a string", bytesOf(HIT.slice(0, 14)), "syntax"],
  ["truncated in an escape", bytesOf(withId('"\\u00')), "syntax"],
  ["trailing garbage", bytesOf(`${HIT}x`), "syntax"],
  ["a second value", bytesOf(`${HIT} {}`), "syntax"],
  ["a trailing comma", bytesOf(withSource('{"a":1,}')), "syntax"],
  ["a missing comma", bytesOf(withSource('{"a":1 "b":2}')), "syntax"],
  ["a missing colon", bytesOf(withSource('{"a" 1}')), "syntax"],
  ["a bare key", bytesOf(withSource("{a:1}")), "syntax"],
  ["mismatched brackets", bytesOf(withSource('{"a":[1}}')), "syntax"],
  ["single quotes", bytesOf(withSource("{'a':1}")), "syntax"],
  ["a comment", bytesOf(withSource('{/* c */"a":1}')), "syntax"],
  ["a line comment", bytesOf(`${HIT}// c`), "syntax"],
  ["NaN", bytesOf(withSource('{"a":NaN}')), "syntax"],
  ["Infinity", bytesOf(withSource('{"a":-Infinity}')), "syntax"],
  ["a leading zero", bytesOf(withSource('{"a":01}')), "syntax"],
  ["a leading plus", bytesOf(withSource('{"a":+1}')), "syntax"],
  ["a bare point", bytesOf(withSource('{"a":1.}')), "syntax"],
  ["a leading point", bytesOf(withSource('{"a":.5}')), "syntax"],
  ["an empty exponent", bytesOf(withSource('{"a":1e+}')), "syntax"],
  ["a hex number", bytesOf(withSource('{"a":0x10}')), "syntax"],
  ["a misspelt literal", bytesOf(withSource('{"a":nul}')), "syntax"],
  ["an unknown escape", bytesOf(withId('"\\x41"')), "syntax"],
  ["a short unicode escape", bytesOf(withId('"\\u12G4"')), "syntax"],
  ["a raw control character", inString(0x01), "syntax"],
  ["a raw tab", inString(0x09), "syntax"],
  ["a raw newline", inString(0x0a), "syntax"],
  ["a byte order mark", bytesOf([0xef, 0xbb, 0xbf], HIT), "syntax"],
  ["invalid UTF-8 outside strings", bytesOf([0xff], HIT), "syntax"],
  ["a huge number in _source", bytesOf(withSource(`{"a":${"9".repeat(100_000)}}`)), "ok"],
  ["a huge exponent in _source", bytesOf(withSource('{"a":1e999999999}')), "ok"],
  ["an infinite _score", bytesOf(HIT.replace('"_score":null', '"_score":1e400')), "shape"],
  ["a huge integer _score", bytesOf(HIT.replace('"_score":null', `"_score":${"9".repeat(400)}`)), "shape"],
  [
    "the largest finite _score",
    bytesOf(HIT.replace('"_score":null', '"_score":1.7976931348623157e308')),
    "ok",
  ],
  ["an infinite sort value", bytesOf(HIT.replace('[1,"j-1"]', '[-1e400,"j-1"]')), "shape"],
  ["a boolean sort value", bytesOf(HIT.replace('[1,"j-1"]', "[true]")), "shape"],
  ["a lone high surrogate escape", bytesOf(withId('"\\ud800"')), "ok"],
  ["a lone low surrogate escape in _source", bytesOf(withSource('{"\\uDC00":"\\uDBFF"}')), "ok"],
  ["a surrogate pair escape", bytesOf(withId('"\\uD83D\\uDE00"')), "ok"],
  ["nesting at the bound", bytesOf(nested(MAX_JSON_DEPTH - 2)), "ok"],
  ["nesting past the bound", bytesOf(nested(MAX_JSON_DEPTH - 1)), "depth"],
  ["nesting 100,000 deep", bytesOf(nested(100_000)), "depth"],
  ["nesting 100,000 deep in sort", bytesOf(HIT.replace('[1,"j-1"]', `[${"[".repeat(100_000)}`)), "depth"],
  ["an invalid byte", inString(0xff), "utf8"],
  ["a lone continuation byte", inString(0x80), "utf8"],
  ["a truncated sequence", inString(0xe6, 0x97), "utf8"],
  ["an overlong slash", inString(0xc0, 0xaf), "utf8"],
  ["an overlong three-byte form", inString(0xe0, 0x80, 0xaf), "utf8"],
  ["an overlong four-byte form", inString(0xf0, 0x80, 0x80, 0xaf), "utf8"],
  ["an encoded surrogate", inString(0xed, 0xa0, 0x80), "utf8"],
  ["beyond U+10FFFF", inString(0xf4, 0x90, 0x80, 0x80), "utf8"],
  ["a five-byte form", inString(0xf8, 0x88, 0x80, 0x80, 0x80), "utf8"],
  ["the highest scalar", inString(0xf4, 0x8f, 0xbf, 0xbf), "ok"],
  ["U+FFFF", inString(0xef, 0xbf, 0xbf), "ok"],
  ["not an object", bytesOf('["_id"]'), "shape"],
  ["a string", bytesOf('"hit"'), "shape"],
  ["an empty object", bytesOf("{}"), "shape"],
  ["a missing _source", bytesOf(HIT.replace(',"_source":{"a":1}', "")), "shape"],
  ["an array _source", bytesOf(withSource("[]")), "shape"],
  ["a null _source", bytesOf(withSource("null")), "shape"],
  ["a numeric _id", bytesOf(withId("17")), "shape"],
  ["a string _score", bytesOf(HIT.replace('"_score":null', '"_score":"1"')), "shape"],
  ["a missing sort", bytesOf(HIT.replace(',"sort":[1,"j-1"]', "")), "shape"],
  ["a wrong _id then a right one", bytesOf(HIT.replace('"_id":"j-1"', '"_id":1,"_id":"j-2"')), "ok"],
  ["a right _id then a wrong one", bytesOf(HIT.replace('"_id":"j-1"', '"_id":"j-2","_id":null')), "shape"],
  [
    "two _source, the last with _id",
    bytesOf(HIT.replace('"_source":', '"_source":{"0":1},"_source":{"_id":1},"x":')),
    "ok",
  ],
  ["an escaped _id key", bytesOf(HIT.replace('"_id"', '"\\u005fid"')), "ok"],
  ["an escaped index key in _source", bytesOf(withSource('{"\\u0031\\u0037":1}')), "ok"],
  ["a leading-zero key in _source", bytesOf(withSource('{"017":1,"":2}')), "ok"],
  ["__proto__ in _source", bytesOf(withSource('{"__proto__":{"_id":1}}')), "ok"],
];

describe("readHitBytes on hostile input", () => {
  for (const [name, bytes, expected] of HOSTILE) {
    it(`${name}: ${expected}`, () => {
      const result = readHitBytes(bytes, 0, bytes.length, "v3Hit");
      expect(result.ok ? "ok" : result.reason).toBe(expected);
      expectAgreement(bytes, "v3Hit");
    });
  }

  it("splices the facts a row needs from the last _source of two", () => {
    const bytes = bytesOf(HIT.replace('"_source":', '"_source":{"0":1},"_source":{"_id":1},"x":'));
    const result = readHitBytes(bytes, 0, bytes.length, "v3Hit");
    expect(result.ok && [result.sourceHasIdentityKey, result.sourceHasIndexKey]).toEqual([true, false]);
  });
});
