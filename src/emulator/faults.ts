// Seeded fault draws: each service request draws its faults from one sequence, so a run with the same
// seed and the same requests sees the same faults.
import type { FaultOptions } from "./options.js";
import { createRandom, hash32 } from "./random.js";

export interface RequestFaults {
  status?: 500 | 502 | 503 | 429;
  revoked: boolean;
  reset: boolean;
  truncate: boolean;
  contextLoss: boolean;
  delayMs: number;
}

const NO_COUNTS = { serverError: 0, rateLimit: 0, revoked: 0, reset: 0, truncate: 0, contextLoss: 0 };

/** How many requests drew each fault, for tests that must show the faults really happened. */
export type FaultCounts = typeof NO_COUNTS;

export interface FaultInjector {
  draw(): RequestFaults;
  counts(): FaultCounts;
  set(faults: FaultOptions): void;
}

export function createFaultInjector(seed: number, initial: Required<FaultOptions>): FaultInjector {
  const random = createRandom(hash32(seed, 0xfa17));
  let faults = { ...initial };
  const counts = { ...NO_COUNTS };
  const count = (drawn: RequestFaults): RequestFaults => {
    if (drawn.status === 429) counts.rateLimit++;
    else if (drawn.status !== undefined) counts.serverError++;
    for (const fault of ["revoked", "reset", "truncate", "contextLoss"] as const)
      if (drawn[fault]) counts[fault]++;
    return drawn;
  };
  return {
    counts: () => ({ ...counts }),
    draw() {
      // Every draw is taken in the same order whatever the rates, so the sequence stays aligned.
      const r = [random(), random(), random(), random(), random(), random(), random()] as const;
      const status =
        r[0] < faults.errorRate
          ? ([500, 502, 503] as const)[Math.floor(r[6] * 3)]
          : r[1] < faults.rateLimitRate
            ? 429
            : undefined;
      return count({
        ...(status === undefined ? {} : { status }),
        revoked: r[2] < faults.tokenRevocationRate,
        reset: r[3] < faults.resetRate,
        truncate: r[4] < faults.truncateRate,
        contextLoss: r[5] < faults.contextLossRate,
        delayMs: faults.latencyMs + (faults.jitterMs > 0 ? Math.floor(r[6] * faults.jitterMs) : 0),
      });
    },
    set(next) {
      faults = { ...faults, ...next };
    },
  };
}
