import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { askAhead, blockCap, blockWanted, minimumBlock, MIN_BLOCK } from "./ledger-block-size.js";

/**
 * Blocks a run takes to reserve `claimed` requests, asking as the gate does: the rest of the claim at
 * once, capped by the ledger at a tenth of the day.
 */
function blocksFor(claimed: number, minimum: number, dayRemaining: number): number {
  let reserved = 0;
  let blocks = 0;
  let left = dayRemaining;
  while (reserved < claimed) {
    const granted = Math.min(blockWanted({ minimum, claimed, reserved }), blockCap(left), left);
    if (granted === 0) break;
    reserved += granted;
    left -= granted;
    blocks += 1;
  }
  return blocks;
}

describe("the ledger's block size", () => {
  test("before the plan a run asks for the minimum, after it for the rest of its claim", () => {
    expect(blockWanted({ minimum: 50, claimed: undefined, reserved: 0 })).toBe(50);
    expect(blockWanted({ minimum: 50, claimed: 600, reserved: 51 })).toBe(549);
    // The rest of the claim, below the minimum too: a run holds no more than it claimed.
    expect(blockWanted({ minimum: 50, claimed: 600, reserved: 597 })).toBe(3);
    // A plan that fell short: more comes in minimum blocks.
    expect(blockWanted({ minimum: 50, claimed: 600, reserved: 600 })).toBe(50);
    expect(minimumBlock(2)).toBe(MIN_BLOCK);
    expect(minimumBlock(40)).toBe(160);
  });

  test("a run asks ahead only while its claim is not covered", () => {
    expect(askAhead({ minimum: 50, claimed: undefined, reserved: 50 }, 12, 50)).toBe(true);
    expect(askAhead({ minimum: 50, claimed: undefined, reserved: 50 }, 13, 50)).toBe(false);
    expect(askAhead({ minimum: 50, claimed: 600, reserved: 300 }, 10, 300)).toBe(true);
    expect(askAhead({ minimum: 50, claimed: 600, reserved: 600 }, 0, 300)).toBe(false);
  });

  test("near the limit blocks shrink to a tenth of what is left, never below a few requests", () => {
    expect(blockCap(100_000)).toBe(10_000);
    expect(blockCap(90)).toBe(9);
    expect(blockCap(12)).toBe(5);
  });

  test("a run's blocks for its claim are few while the day has ten times its claim", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 200_000 }),
        fc.integer({ min: 1, max: 64 }),
        fc.integer({ min: 10, max: 1000 }),
        (claimed, concurrency, dayFactor) => {
          const blocks = blocksFor(claimed, minimumBlock(concurrency), claimed * dayFactor);
          // One block for the whole claim once the day has room for ten of it.
          expect(blocks).toBe(1);
        },
      ),
    );
  });

  test("no grant holds more than a tenth of the day, however large the claim", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.integer({ min: 0, max: 1_000_000 }),
        (left, claimed, reserved) => {
          const granted = Math.min(blockWanted({ minimum: 50, claimed, reserved }), blockCap(left), left);
          expect(granted).toBeLessThanOrEqual(Math.max(5, Math.ceil(left / 10)));
        },
      ),
    );
  });
});
