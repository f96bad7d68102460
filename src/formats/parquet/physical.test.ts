import { Buffer } from "node:buffer";
import { describe, expect, it } from "vitest";
import { physicalTypes } from "./physical.js";
import { createRandom } from "../../emulator/random.js";

/** UTF-8 bytes as Parquet orders BYTE_ARRAY bounds (a lone surrogate is written as U+FFFD). */
const utf8 = (text: string): Buffer => Buffer.from(text, "utf8");

const PIECES = [
  "a",
  "b",
  "job-1",
  "job-10",
  "Z",
  "é",
  "\u00ff",
  "\ud7ff",
  "\ue000",
  "\uffff",
  "😀",
  "𝄞",
  "\ud800",
  "\udc00",
];

function texts(random: () => number, count: number, wide: boolean): string[] {
  return Array.from({ length: count }, () => {
    let text = "";
    const length = Math.floor(random() * 4);
    for (let k = 0; k < length; k++) {
      const pieces = wide ? PIECES : PIECES.slice(0, 5);
      text += pieces[Math.floor(random() * pieces.length)] ?? "";
    }
    return text;
  });
}

describe("text statistics", () => {
  it("are the least and greatest values in UTF-8 byte order, whatever the characters", () => {
    const random = createRandom(20);
    for (let round = 0; round < 400; round++) {
      // ASCII only, then texts where surrogates and characters past them show up at any place.
      const values = texts(random, 1 + Math.floor(random() * 30), round % 2 === 1);
      const sorted = [...values].sort((left, right) => Buffer.compare(utf8(left), utf8(right)));
      const { min_value, max_value } = physicalTypes.string.statistics(values);
      expect(utf8(String(min_value)), JSON.stringify(values)).toEqual(utf8(sorted[0] ?? ""));
      expect(utf8(String(max_value)), JSON.stringify(values)).toEqual(utf8(sorted.at(-1) ?? ""));
    }
  });

  it("order a character past U+FFFF above U+E000..U+FFFF, which `<` does not", () => {
    const values = ["a", "\uffff", "😀", "\ue000"];
    expect(physicalTypes.string.statistics(values)).toEqual({ min_value: "a", max_value: "😀" });
    expect(physicalTypes.string.statistics(["😀", "\uffff"])).toEqual({
      min_value: "\uffff",
      max_value: "😀",
    });
  });
});
