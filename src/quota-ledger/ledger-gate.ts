// A run's side of the quota ledger: the client's requests take permits from a block reserved in the
// ledger, and the next block is asked for (with what was spent and seen) while this one still lasts,
// so the ledger costs one round trip per block, not per request. It also keeps the run's lease alive,
// and says when the run must stop starting slices (a higher-priority claim) or stop at once.
import { EtlError, QuotaExhaustedError } from "../errors.js";
import type { QuotaGate } from "../core/quota-gate.js";
import type { Grant, RunEnd } from "./ledger-types.js";
import { asLedgerError } from "./ledger-gate-options.js";
import type { GateCounts, LedgerGateOptions } from "./ledger-gate-options.js";

export type { GateCounts, LedgerGateOptions } from "./ledger-gate-options.js";

export class LedgerGate implements QuotaGate {
  private available = 0;
  private inFlight = 0;
  private slots: number | undefined;
  private unreported = 0;
  private lowest: number | undefined;
  private refill: Promise<void> | undefined;
  /** Why no block comes any more; thrown once the block in hand is spent. */
  private refusal: EtlError | undefined;
  private yieldTo: string | undefined;
  private readonly slotWaiters: (() => void)[] = [];
  private readonly timer: NodeJS.Timeout;
  readonly counts: GateCounts = {
    blocks: 0,
    granted: 0,
    answered: 0,
    waitMs: 0,
    roundTrips: 0,
    remaining: undefined,
    day: undefined,
  };

  constructor(private readonly options: LedgerGateOptions) {
    // The lease is renewed well before it runs out; a process killed stops renewing it.
    this.timer = setInterval(() => void this.renew(), Math.max(100, Math.floor(options.leaseMs / 3)));
    this.timer.unref();
  }

  async permit(_operation: string, signal?: AbortSignal): Promise<void> {
    const started = this.options.clock.now();
    try {
      for (;;) {
        signal?.throwIfAborted();
        if (this.available > 0 && (this.slots === undefined || this.inFlight < this.slots)) {
          this.take();
          return;
        }
        if (this.available === 0 && this.refusal !== undefined) throw this.refusal;
        if (this.available > 0) await this.slotFreed();
        else await (this.refill ?? this.startRefill());
        // No slot under max_in_flight and nothing in flight here to free one: ask again shortly.
        if (this.slots === 0 && this.inFlight === 0) await this.options.clock.sleep(250, signal);
      }
    } finally {
      const waited = this.options.clock.now() - started;
      this.counts.waitMs += waited;
      if (waited > 0) this.reportNumbers();
    }
  }

  /** Permits given so far: requests this run sent (or is sending) under the ledger. */
  get sent(): number {
    return this.counts.granted - this.available;
  }

  answered(): void {
    this.inFlight = Math.max(0, this.inFlight - 1);
    this.unreported += 1;
    this.counts.answered += 1;
    this.slotWaiters.shift()?.();
  }

  observe(remaining: number): void {
    if (this.lowest === undefined || remaining < this.lowest) this.lowest = remaining;
  }

  /** Set once a higher-priority claim took what is left: the run starts no more slices. */
  yieldError(): EtlError | undefined {
    if (this.yieldTo === undefined) return undefined;
    return new EtlError(
      "QUOTA_YIELDED",
      `yielded to pipeline ${this.yieldTo}: a higher-priority run claims the daily requests that are left; this run finished the slices it had started`,
    );
  }

  /** Ends the run in the ledger: the last report, and the unused block given back. */
  async close(outcome: RunEnd["outcome"]): Promise<void> {
    clearInterval(this.timer);
    await this.refill;
    const end: RunEnd = {
      runId: this.options.runId,
      clientId: this.options.clientId,
      answered: this.unreported,
      observed: this.lowest,
      outcome: this.yieldTo !== undefined && outcome !== "complete" ? "yielded" : outcome,
      yieldedTo: this.yieldTo,
    };
    try {
      this.counts.roundTrips += 1;
      await this.options.ledger.finish(end);
    } catch (error) {
      // The lease gives the block back on its own.
      this.options.log.warn(
        { error: error instanceof Error ? error.message : String(error) },
        "Could not tell the quota ledger that the run ended; its lease returns what it held.",
      );
    }
  }

  private take(): void {
    this.available -= 1;
    this.inFlight += 1;
    // Ask for the next block while a quarter of this one is left, so requests rarely wait for it.
    if (this.available <= Math.floor(this.options.blockSize / 4) && this.refusal === undefined)
      void (this.refill ?? this.startRefill());
  }

  /**
   * The block to ask for: the full size while the day has plenty, a tenth of what is left when it runs
   * low, so one run's block does not hold the last requests the others need.
   */
  private want(): number {
    // Until the ledger has told the day's count, a small block: the day may be nearly spent.
    const remaining = this.counts.remaining ?? 0;
    return Math.min(this.options.blockSize, Math.max(5, Math.ceil(remaining / 10)));
  }

  private slotFreed(): Promise<void> {
    return new Promise((resolve) => this.slotWaiters.push(resolve));
  }

  private startRefill(): Promise<void> {
    const answered = this.unreported;
    const observed = this.lowest;
    this.unreported = 0;
    this.lowest = undefined;
    const { options } = this;
    this.counts.roundTrips += 1;
    const refill = options.ledger
      .takeBlock({
        runId: options.runId,
        clientId: options.clientId,
        want: this.want(),
        slotsWanted: options.slotsWanted,
        answered,
        observed,
        finishing: this.yieldTo !== undefined,
        maxInFlight: options.maxInFlight,
        recheckAfterMs: options.recheckAfterMs,
      })
      .then(
        (grant) => this.granted(grant),
        (error: unknown) => {
          // Reported again with the next attempt, if one comes.
          this.unreported += answered;
          if (observed !== undefined) this.observe(observed);
          this.refusal ??= asLedgerError(error);
          options.log.error(
            { error: this.refusal.message, available: this.available },
            "The quota ledger is unreachable; the run takes no new block and stops when this one is spent.",
          );
        },
      )
      .finally(() => {
        this.refill = undefined;
      });
    this.refill = refill;
    return refill;
  }

  private reportNumbers(): void {
    this.options.report?.({
      remaining: this.counts.remaining,
      reserved: this.counts.granted,
      roundTrips: this.counts.roundTrips,
      waitSeconds: this.counts.waitMs / 1000,
    });
  }

  private granted(grant: Grant): void {
    this.counts.blocks += 1;
    this.counts.granted += grant.granted;
    this.counts.remaining = grant.remaining;
    this.counts.day = grant.day;
    this.available += grant.granted;
    this.slots = grant.slots;
    this.reportNumbers();
    for (const wake of this.slotWaiters.splice(0)) wake();
    if (grant.yieldTo !== undefined && this.yieldTo === undefined) {
      this.yieldTo = grant.yieldTo;
      this.options.log.warn(
        { yieldTo: grant.yieldTo, remaining: grant.remaining },
        "A higher-priority pipeline claims the quota that is left; finishing the slices started, then stopping.",
      );
    }
    if (grant.granted > 0) return;
    if (grant.yieldTo !== undefined) this.refusal = this.yieldError();
    else if (grant.exhausted) {
      this.refusal = new QuotaExhaustedError(
        `the quota ledger ${this.options.ledger.describe} has no requests left for this run: ${grant.remaining ?? 0} remain for the fleet and the reserve is ${this.options.reserve}; resume when the quota renews`,
        grant.remaining,
        this.options.reserve,
      );
    }
  }

  private async renew(): Promise<void> {
    if (this.refusal !== undefined) return;
    try {
      this.counts.roundTrips += 1;
      if (!(await this.options.ledger.renewLease(this.options.runId))) {
        // The lease ran out and the ledger took the block back: what is left here is no longer ours.
        this.available = 0;
      }
    } catch (error) {
      this.refusal ??= asLedgerError(error);
    }
  }
}
