import { snappyUncompress } from "hyparquet";
import { snappyCompress as referenceCompress } from "hyparquet-writer/src/snappy.js";
import { describe, expect, it } from "vitest";
import { snappyCompress } from "./snappy.js";

/** Text with repeats at every distance, random bytes, runs, and the sizes around the block edges. */
function samples(): Uint8Array[] {
  let seed = 7;
  const random = (): number => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const text = Array.from({ length: 5000 }, (_, i) => `job-${i % 97} state=${["done", "failed"][i % 2]};`);
  const noise = Uint8Array.from({ length: 70_000 }, () => Math.floor(random() * 256));
  const sizes = [0, 1, 14, 15, 16, 60, 61, 255, 256, 65_535, 65_536, 65_537, 100_000];
  const mixed = sizes.map((size) =>
    Uint8Array.from({ length: size }, (_, i) => (random() < 0.3 ? Math.floor(random() * 256) : i % 251)),
  );
  return [new Uint8Array(Buffer.from(text.join(""))), noise, new Uint8Array(100_000).fill(9), ...mixed];
}

describe("snappy", () => {
  it("writes the bytes hyparquet-writer's compressor writes, which decompress to the input", () => {
    for (const input of samples()) {
      const compressed = snappyCompress(input).slice();
      expect(compressed).toEqual(referenceCompress(input));
      const output = new Uint8Array(input.length);
      snappyUncompress(compressed, output);
      expect(output).toEqual(input);
    }
  });
});
