import { Buffer } from "node:buffer";
import { describe, expect, it } from "vitest";
import { JsonBytes, MAX_JSON_DEPTH } from "./json-bytes.js";
import { JSON_FAILURE, jsonFailureMessage } from "./json-failures.js";

/** The position after the one value of `text` (whitespace around it allowed), or the failure. */
function readValue(text: string | Uint8Array): number {
  const bytes = typeof text === "string" ? Buffer.from(text) : text;
  const json = new JsonBytes(bytes, bytes.length);
  const at = json.value(json.space(0), 0);
  if (at < 0) return at;
  return json.space(at) === bytes.length ? bytes.length : JSON_FAILURE.unexpected;
}

const VALID = [
  "0",
  "-0",
  "1.5e-3",
  "-12E+7",
  "true",
  "null",
  '""',
  '"a\\u00e9\\ud800\\n\\"\\/"',
  '"héllo 𝄞"',
  ' [1, {"a": [true, false, null]}, "x"] ',
  '{"a":{"b":{"c":[[],{}]}}}',
  `${"[".repeat(MAX_JSON_DEPTH)}${"]".repeat(MAX_JSON_DEPTH)}`,
];

const REFUSED: readonly [string | Uint8Array, number][] = [
  ['"open', JSON_FAILURE.notClosed],
  ['"\\x"', JSON_FAILURE.badEscape],
  ['"\\u12g4"', JSON_FAILURE.badEscape],
  ['"a\tb"', JSON_FAILURE.control],
  [new Uint8Array([0x22, 0xc0, 0xaf, 0x22]), JSON_FAILURE.notUtf8], // overlong "/"
  [new Uint8Array([0x22, 0xed, 0xa0, 0x80, 0x22]), JSON_FAILURE.notUtf8], // an encoded surrogate
  [new Uint8Array([0x22, 0xf4, 0x90, 0x80, 0x80, 0x22]), JSON_FAILURE.notUtf8], // past U+10FFFF
  ["-", JSON_FAILURE.noDigits],
  ["1.", JSON_FAILURE.noFractionDigits],
  ["1e+", JSON_FAILURE.noFractionDigits],
  ["tru", JSON_FAILURE.unknownWord],
  ["nul", JSON_FAILURE.unknownWord],
  ["[1,]", JSON_FAILURE.unexpected],
  ["[1", JSON_FAILURE.commaOrBracket],
  ["[1 2]", JSON_FAILURE.commaOrBracket],
  ['{"a" 1}', JSON_FAILURE.noColon],
  ["{a:1}", JSON_FAILURE.keyNotString],
  ["[", JSON_FAILURE.endsEarly],
  [`${"[".repeat(MAX_JSON_DEPTH + 1)}${"]".repeat(MAX_JSON_DEPTH + 1)}`, JSON_FAILURE.tooDeep],
];

describe("JsonBytes", () => {
  it.each(VALID.map((text) => [text]))("reads %j to its end, as JSON.parse accepts it", (text) => {
    expect(() => JSON.parse(text) as unknown).not.toThrow();
    expect(readValue(text)).toBe(Buffer.byteLength(text));
  });

  it.each(REFUSED.map(([text, failure]) => [String(text).slice(0, 30), text, failure] as const))(
    "refuses %j with its reason",
    (_title, text, failure) => {
      expect(readValue(text)).toBe(failure);
      // Nesting past the bound is JSON, refused only to bound the cost.
      if (typeof text === "string" && failure !== JSON_FAILURE.tooDeep)
        expect(() => JSON.parse(text) as unknown).toThrow();
    },
  );

  it("words every failure", () => {
    const words = Object.values(JSON_FAILURE).map(jsonFailureMessage);
    expect(new Set(words).size).toBe(words.length);
    expect(jsonFailureMessage(JSON_FAILURE.notUtf8)).toBe("a string is not UTF-8");
  });

  it("gives strings and numbers the values JSON.parse gives", () => {
    const numbers = ["0", "-0", "42", "-123456789012345", "1234567890123456789", "1e400", "-2.5E-3"];
    for (const text of numbers) {
      const json = new JsonBytes(Buffer.from(text));
      expect(Object.is(json.numberValue(0, json.number(0)), JSON.parse(text)), text).toBe(true);
    }
    const strings = ['"plain"', '"é𝄞"', '"\\ud83d\\ude00 \\udc00 \\t\\\\\\/"', '"a\\u0000b"'];
    for (const text of strings) {
      const json = new JsonBytes(new Uint8Array(Buffer.from(text)));
      const end = json.string(0);
      expect(json.text(1, end - 1, json.escaped, json.wide), text).toBe(JSON.parse(text));
    }
  });

  it("notes whitespace outside strings", () => {
    const compact = new JsonBytes(Buffer.from('{"a":" b "}'));
    compact.value(0, 0);
    expect(compact.compact).toBe(true);
    const spaced = new JsonBytes(Buffer.from('{"a": 1}'));
    spaced.value(0, 0);
    expect(spaced.compact).toBe(false);
  });
});
