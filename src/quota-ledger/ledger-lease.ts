// Keeping a run's lease in the quota ledger alive: renewed a third of the way through, unless a block
// taken since moved it on already (each block does), so a busy run renews by its blocks alone and the
// ledger costs no statement per interval. A process killed stops renewing, and its lease runs out.
import type { Clock } from "../api/clock.js";
import type { QuotaLedger } from "./quota-ledger.js";

interface LeaseKeeperOptions {
  ledger: Pick<QuotaLedger, "renewLease">;
  runId: string;
  leaseMs: number;
  clock: Clock;
  /** False once the run takes no more from the ledger: nothing is renewed then. */
  wanted: () => boolean;
  /** The lease had run out: the ledger took back what the run held. */
  lost: () => void;
  failed: (error: unknown) => void;
}

export interface LeaseKeeper {
  /** A statement of the run moved its lease on (a block). */
  moved(): void;
  stop(): void;
}

export function keepLease(options: LeaseKeeperOptions): LeaseKeeper {
  let movedAt = options.clock.now();
  const renew = async (): Promise<void> => {
    if (!options.wanted()) return;
    if (options.clock.now() - movedAt < options.leaseMs / 3) return;
    movedAt = options.clock.now();
    try {
      if (!(await options.ledger.renewLease(options.runId))) options.lost();
    } catch (error) {
      options.failed(error);
    }
  };
  const timer = setInterval(() => void renew(), Math.max(100, Math.floor(options.leaseMs / 3)));
  timer.unref();
  return { moved: () => void (movedAt = options.clock.now()), stop: () => clearInterval(timer) };
}
