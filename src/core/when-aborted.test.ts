import { describe, expect, it } from "vitest";
import { whenAborted } from "./when-aborted.js";

describe("whenAborted", () => {
  it("reacts once when the signal aborts, with the signal's reason readable", () => {
    const parent = new AbortController();
    const seen: unknown[] = [];
    whenAborted(parent.signal, () => seen.push(parent.signal.reason));
    expect(seen).toEqual([]);
    parent.abort("stop");
    parent.signal.dispatchEvent(new Event("abort"));
    expect(seen).toEqual(["stop"]);
  });

  it("reacts before it returns when the signal has already aborted", () => {
    const seen: string[] = [];
    const stop = whenAborted(AbortSignal.abort("gone"), () => seen.push("aborted"));
    seen.push("returned");
    expect(seen).toEqual(["aborted", "returned"]);
    expect(stop).not.toThrow();
  });

  it("leaves no listener behind once the work has settled", () => {
    const parent = new AbortController();
    let calls = 0;
    const stops = Array.from({ length: 3 }, () => whenAborted(parent.signal, () => calls++));
    for (const stop of stops) stop();
    parent.abort();
    expect(calls).toBe(0);
  });

  it("does nothing without a signal", () => {
    let calls = 0;
    const stop = whenAborted(undefined, () => calls++);
    stop();
    expect(calls).toBe(0);
  });
});
