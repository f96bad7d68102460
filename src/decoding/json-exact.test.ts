// JSON text read with exact integers and written back as readers take it, checked on generated JSON:
// integers anywhere in int64 (and past it), lone surrogates, and keys repeated as raw text.
import { Buffer } from "node:buffer";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseJson, stringifyJson, wellFormedJson } from "./json-exact.js";
import { copiesAsParsed } from "./json-copy.js";
import { UniqueKeys } from "./json-keys.js";

const INT64 = fc.bigInt(-(2n ** 63n), 2n ** 63n - 1n);

/** JSON text of a value tree whose integers are bigints of any int64, with repeated keys and surrogates. */
const tree: fc.Arbitrary<string> = fc.letrec<{ value: string }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    INT64.map(String),
    fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => JSON.stringify(d)),
    fc.constantFrom('"\\ud800"', '"a\\udc00"', '"\\ud83d\\ude00"', '"\\\\ud800"', "true", "null", '""'),
    fc.string().map((s) => JSON.stringify(s)),
    fc.array(tie("value"), { maxLength: 4 }).map((items) => `[${items.join(",")}]`),
    fc
      .array(fc.tuple(fc.constantFrom("a", "b", "c", "__proto__", "1"), tie("value")), { maxLength: 5 })
      .map((members) => `{${members.map(([key, value]) => `"${key}":${value}`).join(",")}}`),
  ),
})).value;

/** The value JSON.parse means, with every integer exact: read by a reviver-free walk of the text. */
function digitsOf(text: string): string[] {
  // Integer tokens outside strings, in order: what an exact reading must keep.
  return [...text.replace(/"(?:[^"\\]|\\.)*"/g, '""').matchAll(/-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g)]
    .map((match) => match[0])
    .filter((token) => /^-?\d+$/.test(token));
}

describe("parseJson", () => {
  it("keeps JSON.parse's meaning, with every integer beyond 2^53 exact", () => {
    fc.assert(
      fc.property(tree, (text) => {
        const exact = parseJson(text);
        // Where no integer is unsafe it is JSON.parse itself.
        const loose = JSON.parse(text) as unknown;
        const unsafe = digitsOf(text).some((digits) => !Number.isSafeInteger(Number(digits)));
        if (!unsafe) expect(exact).toEqual(loose);
        // Written back, the digits are the sent ones and the text is JSON.parse's meaning otherwise.
        const written = stringifyJson(exact) ?? "";
        expect(JSON.parse(written)).toEqual(JSON.parse(wellFormedJson(JSON.stringify(loose))));
        for (const digits of digitsOf(written))
          if (!Number.isSafeInteger(Number(digits))) expect(text).toContain(digits);
        expect(written).not.toMatch(/(?<!\\)(?:\\\\)*\\ud[89a-f]/i);
      }),
      { numRuns: 300 },
    );
  });

  it("reads int64's ends and 2^53 + 1 exactly, and lets a double stay a double", () => {
    expect(
      parseJson('{"a":9007199254740993,"b":[-9223372036854775808,9223372036854775807],"c":1.5e300}'),
    ).toEqual({
      a: 9007199254740993n,
      b: [-9223372036854775808n, 9223372036854775807n],
      c: 1.5e300,
    });
  });
});

/** Keys of every object in a parsed value. */
function keptKeys(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + keptKeys(item), 0);
  if (value === null || typeof value !== "object") return 0;
  return Object.values(value).reduce(
    (sum: number, item) => sum + 1 + keptKeys(item),
    Object.keys(value).length * 0,
  );
}

describe("copiesAsParsed", () => {
  it("is true exactly when no object repeats a key and no string holds a lone surrogate escape", () => {
    const keys = new UniqueKeys();
    fc.assert(
      fc.property(tree, (text) => {
        // Outside strings a colon follows each key written; JSON.parse keeps each key of an object once.
        const written = (text.replace(/"(?:[^"\\]|\\.)*"/g, '""').match(/:/g) ?? []).length;
        const expected = written === keptKeys(JSON.parse(text)) && wellFormedJson(text) === text;
        expect(copiesAsParsed(Buffer.from(text), keys), text).toBe(expected);
      }),
      { numRuns: 500 },
    );
  });
});
