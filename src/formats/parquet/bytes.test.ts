import { readRleBitPackedHybrid } from "hyparquet/src/encoding.js";
import { describe, expect, it } from "vitest";
import { PageBytes, appendHybrid, bitWidthOf } from "./bytes.js";

/** Values of `width` bits: runs of one value, stretches of random ones, and lengths off the groups of 8. */
function valuesOf(width: number, length: number): Int32Array {
  let seed = width * 7919 + length;
  const random = (): number => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const max = width === 32 ? 2 ** 31 - 1 : 2 ** width - 1;
  const values = new Int32Array(length);
  for (let i = 0; i < length;) {
    const run = random() < 0.3 ? 8 + Math.floor(random() * 40) : 1 + Math.floor(random() * 12);
    const same = random() < 0.5;
    const value = Math.floor(random() * (max + 1));
    for (let j = 0; j < run && i < length; j++, i++)
      values[i] = same ? value : Math.floor(random() * (max + 1));
  }
  return values;
}

/** The hybrid read bit by bit, as the format describes it: the test's own decoder, for every width. */
function decodeHybrid(bytes: Uint8Array, width: number, count: number): number[] {
  const out: number[] = [];
  let at = 0;
  const varInt = (): number => {
    let value = 0;
    for (let shift = 0; ; shift += 7) {
      const byte = bytes[at++] as number;
      value += (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) return value;
    }
  };
  while (out.length < count) {
    const header = varInt();
    if (header % 2 === 0) {
      let value = 0;
      for (let byte = 0; byte < Math.ceil(width / 8); byte++)
        value += (bytes[at++] as number) * 2 ** (8 * byte);
      for (let i = 0; i < header / 2; i++) out.push(value);
    } else {
      const values = ((header - 1) / 2) * 8;
      for (let i = 0; i < values; i++) {
        let value = 0;
        for (let bit = 0; bit < width; bit++) {
          const position = i * width + bit;
          if (((bytes[at + (position >> 3)] as number) >> (position & 7)) & 1) value += 2 ** bit;
        }
        out.push(value);
      }
      at += (values * width) / 8;
    }
  }
  return out.slice(0, count);
}

describe("the RLE / bit-packing hybrid", () => {
  it("reads back bit by bit at every width, and with hyparquet's decoder up to 24 bits", () => {
    for (const width of [0, 1, 2, 3, 7, 8, 9, 13, 16, 20, 24, 25, 31, 32]) {
      for (const length of [1, 7, 8, 9, 100, 1001]) {
        const values = width === 0 ? new Int32Array(length) : valuesOf(width, length);
        const from = length > 9 ? 3 : 0;
        const out = new PageBytes(16);
        appendHybrid(out, values, from, length, width);
        const bytes = out.bytes();
        const expected = Array.from(values.subarray(from));
        expect(decodeHybrid(bytes, width, length - from), `width ${width}, length ${length}`).toEqual(
          expected,
        );
        // hyparquet's decoder shifts within 32 bits, so it reads widths up to 24 only.
        if (width > 24) continue;
        const decoded = new Array<number>(length - from);
        const reader = { view: new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength), offset: 0 };
        readRleBitPackedHybrid(reader, width, decoded, bytes.length);
        expect(decoded, `hyparquet, width ${width}, length ${length}`).toEqual(expected);
      }
    }
  });

  it("sizes bit widths to the largest value", () => {
    expect([0, 1, 2, 3, 255, 256, 2 ** 31 - 1].map(bitWidthOf)).toEqual([0, 1, 2, 2, 8, 9, 31]);
  });
});

describe("PLAIN texts", () => {
  it("are their UTF-8 length and bytes, short or long, ASCII or not, lone surrogates as U+FFFD", () => {
    const texts = [
      "",
      "a",
      "DONE",
      "x".repeat(32),
      "y".repeat(33),
      "z".repeat(5000),
      "ascii then ü",
      "ü first",
      `${"a".repeat(31)}é`,
      "emoji 🎉 in the middle",
      "lone \ud800 surrogate",
      "\udc00",
      "\u007f\u0000 control",
    ];
    // A small start, so the buffer grows while texts are written.
    const out = new PageBytes(8);
    for (const text of texts) out.text(text);
    const expected = Buffer.concat(
      texts.map((text) => {
        const bytes = Buffer.from(text, "utf8");
        const length = Buffer.alloc(4);
        length.writeUInt32LE(bytes.length);
        return Buffer.concat([length, bytes]);
      }),
    );
    expect(Buffer.from(out.bytes())).toEqual(expected);
  });
});
