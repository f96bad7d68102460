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

describe("decodePartition bounds", () => {
  const bounds = { maxLineBytes: 64 * 1024, maxDecompressionRatio: 20 };

  async function drain(body: AsyncIterable<Uint8Array>, expected?: number): Promise<unknown> {
    try {
      for await (const _batch of decodePartition(body, { bounds, expected })) {
        // Consume.
      }
      return undefined;
    } catch (error) {
      return error;
    }
  }

  it("stops a line longer than the cap instead of buffering it", async () => {
    let pulled = 0;
    async function* oneEndlessLine(): AsyncGenerator<Uint8Array> {
      yield Buffer.from('{"_id":"a","text":"');
      for (;;) {
        pulled += 1;
        yield Buffer.alloc(1024, 0x61);
      }
    }
    const error = await drain(oneEndlessLine());
    expect((error as { code?: string }).code).toBe("PARTITION_UNBOUNDED");
    expect(String(error)).toContain("max_line_bytes");
    expect(pulled).toBeLessThanOrEqual(65);
  });

  it("stops an endless JSON array element the same way", async () => {
    async function* endlessElement(): AsyncGenerator<Uint8Array> {
      yield Buffer.from('[{"_id":"a","text":"');
      for (;;) yield Buffer.alloc(1024, 0x61);
    }
    expect(String(await drain(endlessElement()))).toContain("max_line_bytes");
  });

  it("refuses a gzip bomb once it inflates past the ratio", async () => {
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024, 0x20));
    const error = await drain(chunks(bomb, 4096));
    expect((error as { code?: string }).code).toBe("PARTITION_UNBOUNDED");
    expect(String(error)).toContain("max_decompression_ratio");
  });

  it("stops an endless NDJSON partition right after its announced count", async () => {
    let pulled = 0;
    async function* endless(): AsyncGenerator<Uint8Array> {
      for (let i = 0; ; i++) {
        pulled += 1;
        yield Buffer.from(`{"_id":"id-${i}"}\n`);
      }
    }
    const error = await drain(endless(), 5);
    expect(String(error)).toContain("more records than the 5 its status announced");
    expect(pulled).toBe(6);
  });

  it("reads a record spread over many small chunks whole", async () => {
    const text = JSON.stringify({ _id: "long", text: "é".repeat(20_000) });
    const out = [];
    for await (const batch of decodePartition(chunks(Buffer.from(`${text}\n`), 3), { bounds }))
      out.push(...batch);
    expect(out).toEqual([JSON.parse(text)]);
  });
});
