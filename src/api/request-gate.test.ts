import { describe, expect, it } from "vitest";
import { AdaptiveConcurrency } from "./adaptive-concurrency.js";
import { RequestGate } from "./request-gate.js";
import type { GatePass } from "./request-gate.js";

function gateOf(max: number): { gate: RequestGate; advance(ms: number): void } {
  let now = 0;
  const arc = new AdaptiveConcurrency({ max, now: () => now });
  return { gate: new RequestGate(arc, () => now), advance: (ms) => void (now += ms) };
}

/** Whether the promise has settled by the time the microtasks queued so far have run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  promise.then(
    () => (done = true),
    () => (done = true),
  );
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

describe("request gate", () => {
  it("lets the limit of requests wait for answers at once and queues the rest in order", async () => {
    const { gate } = gateOf(2);
    const first = await gate.enter();
    const second = await gate.enter();
    const order: string[] = [];
    const third = gate.enter().then((pass) => (order.push("third"), pass));
    const fourth = gate.enter().then((pass) => (order.push("fourth"), pass));
    expect(await settled(third)).toBe(false);
    first.answered(false);
    expect(await settled(third)).toBe(true);
    expect(await settled(fourth)).toBe(false);
    second.failed();
    (await third).answered(false);
    (await fourth).answered(false);
    expect(order).toEqual(["third", "fourth"]);
  });

  it("lets fewer through once the service pushed back, and gives a waiter's place up when it is aborted", async () => {
    const { gate, advance } = gateOf(2);
    const passes: GatePass[] = [await gate.enter(), await gate.enter()];
    advance(10);
    passes[0]?.answered(true);
    expect(gate.limit).toBe(1);
    const controller = new AbortController();
    const aborted = gate.enter(controller.signal);
    const next = gate.enter();
    controller.abort(new Error("slice stopped"));
    await expect(aborted).rejects.toThrow("slice stopped");
    expect(await settled(next)).toBe(false);
    passes[1]?.answered(false);
    expect(await settled(next)).toBe(true);
  });

  it("keeps the quickest round trip of the answers that were not push-backs", async () => {
    const { gate, advance } = gateOf(4);
    expect(gate.latency()).toEqual({ minMs: undefined });
    const slow = await gate.enter();
    const fast = await gate.enter();
    const throttled = await gate.enter();
    advance(50);
    throttled.answered(true);
    advance(50);
    fast.answered(false);
    advance(200);
    slow.answered(false);
    expect(gate.latency()).toEqual({ minMs: 100 });
  });
});
