import { describe, expect, it } from "vitest";
import { gzipSync } from "node:zlib";
import { decodePartition } from "./partition-records.js";

const records = Array.from({ length: 25 }, (_, i) => ({
  _id: `id-${i}`,
  _source: { text: `a "quoted" [${i}], {x}` },
}));

async function* chunks(bytes: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

async function decodeAll(bytes: Uint8Array, chunkSize: number): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const batch of decodePartition(chunks(bytes, chunkSize), { batchSize: 7 })) {
    expect(batch.length).toBeLessThanOrEqual(7);
    out.push(...batch);
  }
  return out;
}

const ndjson = Buffer.from(records.map((r) => JSON.stringify(r)).join("\n") + "\n");
const array = Buffer.from(`  \n${JSON.stringify(records, null, 2)}\n`);

describe("decodePartition", () => {
  for (const chunkSize of [1, 3, 64, 1 << 20]) {
    it(`reads NDJSON, gzip NDJSON, a JSON array and a gzip JSON array (chunks of ${chunkSize})`, async () => {
      expect(await decodeAll(ndjson, chunkSize)).toEqual(records);
      expect(await decodeAll(gzipSync(ndjson), chunkSize)).toEqual(records);
      expect(await decodeAll(array, chunkSize)).toEqual(records);
      expect(await decodeAll(gzipSync(array), chunkSize)).toEqual(records);
    });
  }

  it("reads empty bodies and empty arrays as no records", async () => {
    expect(await decodeAll(Buffer.from(""), 4)).toEqual([]);
    expect(await decodeAll(Buffer.from("[]"), 4)).toEqual([]);
    expect(await decodeAll(gzipSync(Buffer.from("")), 4)).toEqual([]);
  });

  it("rejects truncated bodies", async () => {
    await expect(decodeAll(array.subarray(0, array.length - 10), 16)).rejects.toThrow();
    await expect(decodeAll(ndjson.subarray(0, ndjson.length - 10), 16)).rejects.toThrow();
    const gz = gzipSync(ndjson);
    await expect(decodeAll(gz.subarray(0, gz.length - 12), 16)).rejects.toThrow();
  });
});
