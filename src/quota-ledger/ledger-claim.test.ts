import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { claimFor, isUnprobed, UNPROBED_SLICE_PAGES } from "./ledger-claim.js";
import { RunClaim } from "./ledger-block-size.js";

describe("the claim of a plan", () => {
  test("an unprobed paged slice is claimed at the conservative estimate, not the plan's one page", () => {
    const unprobed = { requests: 1, expected: undefined, retrieval: "pit" };
    const probed = { requests: 3, expected: 250, retrieval: "pit" };
    const batch = { requests: 3, expected: undefined, retrieval: "batch" };
    expect(isUnprobed(unprobed)).toBe(true);
    expect(isUnprobed(batch)).toBe(false);
    expect(claimFor([unprobed, probed, batch])).toBe(UNPROBED_SLICE_PAGES + 3 + 3);
    // A plan that already expects more pages keeps its own figure.
    expect(claimFor([{ ...unprobed, requests: 40 }])).toBe(40);
  });

  test("a run reserving past its claim grows the claim with the block, so it never claims less than it holds", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 500 }),
        fc.integer({ min: 1, max: 40 }),
        fc.array(fc.integer({ min: 0, max: 200 }), { minLength: 1, maxLength: 12 }),
        (planned, shards, grants) => {
          const claim = new RunClaim(50, "p w");
          let reserved = 0;
          const first = claim.planned(planned * shards, planned, reserved);
          let fleet = first.claim?.requests ?? 0;
          for (const granted of grants) {
            const ask = claim.next(reserved);
            if (ask.claim !== undefined) {
              // Grown by exactly the block asked for, for this run and for the fleet.
              expect(ask.claim.requests).toBe(fleet + ask.want);
              fleet = ask.claim.requests;
            }
            reserved += Math.min(granted, ask.want);
            expect(claim.own ?? 0).toBeGreaterThanOrEqual(reserved);
          }
        },
      ),
    );
  });
});
