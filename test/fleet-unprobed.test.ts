// A plan that could not probe its slices (a fixed slice length and strategy) estimates one page each.
// Claimed as that, a run would under-claim silently, and the claims of higher-priority runs would
// protect too little: the ledger claims a conservative estimate per unprobed slice instead, and grows
// the claim as the run reserves past it, so the claim never falls below what the run spent.
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { spawnCli, startTestService } from "./support/cli-harness.js";
import {
  freshLedgerUrl,
  ledgerAsShown,
  quotaRequests,
  useFleetFloor,
  writeFleetPipeline,
} from "./support/fleet.js";
import { UNPROBED_SLICE_PAGES } from "../src/quota-ledger/ledger-claim.js";

const floor = useFleetFloor("fleet-unprobed");

async function runUnprobed(pageSize: number): Promise<{ claim: number; spent: number; requests: number }> {
  const service = await startTestService({ seed: 11, density: 40 });
  try {
    const ledger = await freshLedgerUrl(floor.postgres);
    const file = await writeFleetPipeline(floor.dir, {
      name: `unprobed-${pageSize}`,
      hours: 6,
      pageSize,
      strategy: "pit",
    });
    const run = spawnCli(["run", file], {
      ...service.env,
      OUT: join(floor.dir, `unprobed-${pageSize}`),
      MDQ_QUOTA_LEDGER: ledger,
    });
    expect(await run.exited, run.stderr()).toBe(0);
    const shown = (await ledgerAsShown(ledger)).clients[0]?.runs[0];
    return { claim: shown?.claim ?? 0, spent: shown?.spent ?? 0, requests: quotaRequests(service.emulator) };
  } finally {
    await service.close();
  }
}

describe("a plan without a probe", () => {
  test("claims a conservative estimate per slice, not one page, and covers what it spends", async () => {
    // Some two pages an hour: six slices spend about 13 requests, the plan said 6.
    const small = await runUnprobed(100);
    expect(small.spent).toBe(small.requests);
    expect(small.spent).toBeGreaterThan(6 + 1);
    expect(small.claim).toBeGreaterThanOrEqual(6 * UNPROBED_SLICE_PAGES);
    expect(small.claim).toBeGreaterThanOrEqual(small.spent);
  }, 60_000);

  test("grows the claim when the slices need more than the estimate", async () => {
    // Some 12 pages an hour: more than the estimate of 10 a slice.
    const large = await runUnprobed(10);
    expect(large.spent).toBe(large.requests);
    expect(large.spent).toBeGreaterThan(6 * UNPROBED_SLICE_PAGES + 1);
    expect(large.claim).toBeGreaterThanOrEqual(large.spent);
  }, 60_000);
});
