// What a run's gate to the quota ledger is given and what it counts, and the error a failure of the
// ledger becomes.
import { errorCode, EtlError, QuotaExhaustedError } from "../errors.js";
import type { Logger } from "../logger.js";
import type { Clock } from "../api/clock.js";
import type { QuotaLedgerNumbers } from "../core/run-observer.js";
import type { QuotaLedger } from "./quota-ledger.js";
import type { QuotaPriority } from "./ledger-types.js";

/** A failure of the ledger as the error the run stops with: the ledger's own, or one naming it. */
export function asLedgerError(error: unknown): EtlError {
  if (errorCode(error) !== undefined) return error as EtlError;
  return new EtlError("QUOTA_LEDGER_UNREACHABLE", `the quota ledger failed: ${String(error)}`, {
    cause: error,
  });
}

/** Why a run starts no more slices: a higher-priority pipeline claims what is left. */
export function yieldedError(pipeline: string): EtlError {
  return new EtlError(
    "QUOTA_YIELDED",
    `yielded to pipeline ${pipeline}: a higher-priority run claims the daily requests that are left; this run finished the slices it had started`,
  );
}

/** The fleet's quota, less this run's reserve, is spent. */
export function ledgerExhausted(ledger: string, remaining: number | undefined, reserve: number): EtlError {
  return new QuotaExhaustedError(
    `the quota ledger ${ledger} has no requests left for this run: ${remaining ?? 0} remain for the fleet and the reserve is ${reserve}; resume when the quota renews`,
    remaining,
    reserve,
  );
}

export interface LedgerGateOptions {
  ledger: QuotaLedger;
  runId: string;
  clientId: string;
  pipeline: string;
  priority: QuotaPriority;
  /** Pipeline and window: the claim this run (and its fellow shards) writes. */
  claimKey: string;
  /** Requests asked for at a time. */
  blockSize: number;
  /** Requests this run would send at once (its concurrency), toward `max_in_flight`. */
  slotsWanted: number;
  maxInFlight: number | undefined;
  recheckAfterMs: number;
  leaseMs: number;
  reserve: number;
  log: Logger;
  clock: Clock;
  /** Told the ledger's numbers after each round trip (the run's metrics). */
  report?: (numbers: QuotaLedgerNumbers) => void;
}

/**
 * What the progress line shows of the ledger: the numbers the metrics show, and this run's claim (its
 * part of the plan, planning included; undefined before the plan).
 */
export type LedgerProgress = Pick<QuotaLedgerNumbers, "remaining" | "reserved" | "spent"> & {
  claim: number | undefined;
};

/** The ledger's numbers as this run sees them, for metrics and the run's end. */
export interface GateCounts {
  blocks: number;
  granted: number;
  answered: number;
  waitMs: number;
  remaining: number | undefined;
  day: number | undefined;
}
