import { Buffer } from "node:buffer";
import { setImmediate as turn } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { readAhead, TAIL_BYTES } from "./read-ahead.js";
import type { CancellableBody } from "./read-ahead.js";

/** A body of `chunks` whose source counts what was pulled from it and whether it was cancelled. */
function countedBody(
  chunks: Buffer[],
  failAfter?: number,
): CancellableBody & { pulled: number; dumped: boolean } {
  const body = {
    pulled: 0,
    dumped: false,
    async *[Symbol.asyncIterator](): AsyncGenerator<Uint8Array> {
      for (const [index, chunk] of chunks.entries()) {
        if (body.dumped) return;
        if (failAfter !== undefined && index === failAfter) throw new Error("connection reset");
        body.pulled += 1;
        await turn();
        yield chunk;
      }
    },
    async dump() {
      body.dumped = true;
      await Promise.resolve();
    },
  };
  return body;
}

const chunksOf = (count: number, size: number): Buffer[] =>
  Array.from({ length: count }, (_, index) => Buffer.alloc(size, index % 251));

async function settle(rounds = 50): Promise<void> {
  for (let k = 0; k < rounds; k++) await turn();
}

describe("readAhead", () => {
  it("reads the whole body before its reader takes any, and hands over its end", async () => {
    const chunks = chunksOf(10, 20 * 1024);
    const body = countedBody(chunks);
    const tails: Buffer[] = [];
    const ahead = readAhead(body, { onEnd: (tail) => tails.push(tail), limit: () => 1 << 30 });
    await settle();
    expect(body.pulled).toBe(10);
    expect(tails).toHaveLength(1);
    const whole = Buffer.concat(chunks);
    const tail = tails[0] as Buffer;
    expect(tail.length).toBeGreaterThanOrEqual(TAIL_BYTES);
    expect(tail.equals(whole.subarray(whole.length - tail.length))).toBe(true);
    const read: Buffer[] = [];
    for await (const chunk of ahead) read.push(Buffer.from(chunk));
    expect(Buffer.concat(read).equals(whole)).toBe(true);
  });

  it("hands over the whole body as its end when it is shorter than the tail kept", async () => {
    const tails: Buffer[] = [];
    const ahead = readAhead(countedBody([Buffer.from('{"a":'), Buffer.from("1}")]), {
      onEnd: (tail) => tails.push(tail),
      limit: () => 1 << 30,
    });
    for await (const _chunk of ahead) {
      // Read to the end.
    }
    expect(tails.map((tail) => tail.toString())).toEqual(['{"a":1}']);
  });

  it("reads no further ahead than its limit, and goes on as the reader takes", async () => {
    const body = countedBody(chunksOf(20, 100_000));
    let limit = 300_000;
    const ended: number[] = [];
    const ahead = readAhead(body, { onEnd: () => ended.push(body.pulled), limit: () => limit })[
      Symbol.asyncIterator
    ]();
    await settle();
    expect(body.pulled).toBe(3);
    await ahead.next();
    await settle();
    expect(body.pulled).toBe(4);
    limit = 1 << 30;
    await ahead.next();
    await settle();
    expect(body.pulled).toBe(20);
    expect(ended).toEqual([20]);
    let rest = 0;
    for (let step = await ahead.next(); step.done !== true; step = await ahead.next()) rest++;
    expect(rest).toBe(18);
  });

  it("hands the reader nothing before it is readable, while reading ahead up to its limit", async () => {
    const body = countedBody(chunksOf(10, 100_000));
    let open = (): void => undefined;
    const readable = new Promise<void>((resolve) => (open = resolve));
    const ahead = readAhead(body, { onEnd: () => undefined, limit: () => 250_000, readable })[
      Symbol.asyncIterator
    ]();
    let first: IteratorResult<Uint8Array> | undefined;
    void ahead.next().then((step) => (first = step));
    await settle();
    expect(first).toBeUndefined();
    expect(body.pulled).toBe(3);
    open();
    await settle();
    expect(first?.done).toBe(false);
    let rest = 0;
    for (let step = await ahead.next(); step.done !== true; step = await ahead.next()) rest++;
    expect(rest).toBe(9);
  });

  it("hands the reader the bytes before a failure, then the failure, and never an end", async () => {
    const ended: Buffer[] = [];
    const ahead = readAhead(countedBody(chunksOf(5, 10), 3), {
      onEnd: (tail) => ended.push(tail),
      limit: () => 1 << 30,
    });
    const read: Uint8Array[] = [];
    const failure = await (async () => {
      for await (const chunk of ahead) read.push(chunk);
    })().catch((error: unknown) => error);
    expect((failure as Error).message).toBe("connection reset");
    expect(read).toHaveLength(3);
    expect(ended).toHaveLength(0);
  });

  it("cancels the body when its reader stops early, and pulls nothing more", async () => {
    const body = countedBody(chunksOf(50, 100_000));
    const ahead = readAhead(body, { onEnd: () => undefined, limit: () => 250_000 });
    for await (const _chunk of ahead) break;
    await settle();
    expect(body.dumped).toBe(true);
    expect(body.pulled).toBeLessThanOrEqual(4);
  });

  it("a hook that throws leaves the body to its reader", async () => {
    const chunks = chunksOf(3, 10);
    const ahead = readAhead(countedBody(chunks), {
      onEnd: () => {
        throw new Error("not a cursor");
      },
      limit: () => 1 << 30,
    });
    const read: Uint8Array[] = [];
    for await (const chunk of ahead) read.push(chunk);
    expect(Buffer.concat(read).equals(Buffer.concat(chunks))).toBe(true);
  });
});
