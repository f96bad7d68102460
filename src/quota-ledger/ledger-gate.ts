// A run's side of the quota ledger: the client's requests take permits from a block reserved in the
// ledger, and the next block is asked for (with what was spent and seen) while this one still lasts,
// so the ledger costs one round trip per block, not per request. It carries the run's claim, keeps
// its lease alive (ledger-lease.ts), and says when the run must stop starting slices (a higher-priority claim) or stop at once.
import type { EtlError } from "../errors.js";
import { errorMessage } from "../errors.js";
import type { QuotaGate } from "../core/quota-gate.js";
import type { BlockRequest, RunEnd } from "./ledger-types.js";
import type { Grant } from "./ledger-grant.js";
import { asLedgerError, ledgerExhausted, yieldedError } from "./ledger-gate-options.js";
import { askAhead, DAY_SHARE, RunClaim } from "./ledger-block-size.js";
import type { GateCounts, LedgerGateOptions, LedgerProgress } from "./ledger-gate-options.js";
import { keepLease, type LeaseKeeper } from "./ledger-lease.js";

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
  private yieldDay: number | undefined;
  private readonly runClaim: RunClaim;
  private lastBlock = 0;
  /** A probe's answer is awaited: asked before it, the ledger would refuse on yesterday's count. */
  private probing = false;
  private readonly slotWaiters: (() => void)[] = [];
  private readonly lease: LeaseKeeper;
  readonly counts: GateCounts = {
    blocks: 0,
    granted: 0,
    answered: 0,
    waitMs: 0,
    remaining: undefined,
    day: undefined,
  };

  constructor(private readonly options: LedgerGateOptions) {
    this.runClaim = new RunClaim(options.blockSize, options.claimKey);
    this.lease = keepLease({
      ...options,
      wanted: () => this.refusal === undefined,
      // The lease ran out and the ledger took the block back: what is left here is no longer ours.
      lost: () => (this.available = 0),
      failed: (error) => (this.refusal ??= asLedgerError(error)),
    });
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
        if (this.available === 0 && this.probing) await this.slotFreed();
        else if (this.available === 0) await (this.refill ?? this.nextBlock());
        else if (this.slots !== 0 || this.inFlight > 0) await this.slotFreed();
        else {
          // No slot under max_in_flight, none in flight here to free: ask the ledger again shortly.
          if (this.refusal !== undefined) throw this.refusal;
          await this.options.clock.sleep(250, signal);
          await (this.refill ?? this.startRefill(0));
        }
      }
    } finally {
      const waited = this.options.clock.now() - started;
      this.counts.waitMs += waited;
      if (waited > 0) this.reportNumbers();
    }
  }

  progress(): LedgerProgress {
    const { remaining, granted, answered } = this.counts;
    return { remaining, claim: this.runClaim.own, reserved: granted, spent: answered };
  }

  /** Permits given so far: requests this run sent (or is sending) under the ledger. */
  get sent(): number {
    return this.counts.granted - this.available;
  }

  answered(): void {
    this.inFlight = Math.max(0, this.inFlight - 1);
    this.unreported += 1;
    this.counts.answered += 1;
    if (this.probing && this.inFlight === 0) {
      this.probing = false;
      for (const wake of this.slotWaiters.splice(0)) wake();
      return;
    }
    this.slotWaiters.shift()?.();
  }

  observe(remaining: number): void {
    if (this.lowest === undefined || remaining < this.lowest) this.lowest = remaining;
  }

  /** Set once a higher-priority claim took what is left: the run starts no more slices. */
  yieldError(): EtlError | undefined {
    return this.yieldTo === undefined ? undefined : yieldedError(this.yieldTo);
  }

  /**
   * The run's plan is known: it claims `requests` (every shard's, planning included), of which `own`
   * are this process's. The claim travels with the next block, sized from what `own` still needs, in
   * one statement. A ledger out of reach then is one mid-run: the run spends the block it holds and
   * stops (the refill's failure says so).
   */
  async claim(requests: number, own: number): Promise<void> {
    while (this.refill !== undefined) await this.refill;
    const ask = this.runClaim.planned(requests, own, this.counts.granted);
    await this.startRefill(ask.want, ask.claim);
  }

  /** Ends the run in the ledger: the last report, and the unused block given back. */
  async close(outcome: RunEnd["outcome"]): Promise<void> {
    this.lease.stop();
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
      await this.options.ledger.finish(end);
      this.reportNumbers();
    } catch (error) {
      // The lease gives the block back on its own.
      this.options.log.warn(
        { error: errorMessage(error) },
        "Could not tell the quota ledger that the run ended; its lease returns what it held.",
      );
    }
    const { roundTrips, statements } = this.options.ledger;
    this.options.log.debug(
      { ...this.counts, roundTrips, statements, claimed: this.runClaim.own },
      "Left the quota ledger.",
    );
  }

  private take(): void {
    this.available -= 1;
    this.inFlight += 1;
    const need = this.runClaim.need(this.counts.granted);
    const ahead = !this.probing && askAhead(need, this.available, this.lastBlock);
    if (this.refusal === undefined && ahead) void (this.refill ?? this.nextBlock());
  }

  private nextBlock(): Promise<void> {
    const ask = this.runClaim.next(this.counts.granted);
    return this.startRefill(ask.want, ask.claim);
  }

  private slotFreed(): Promise<void> {
    return new Promise((resolve) => this.slotWaiters.push(resolve));
  }

  private startRefill(want: number, claim?: BlockRequest["claim"]): Promise<void> {
    const answered = this.unreported;
    const observed = this.lowest;
    this.unreported = 0;
    this.lowest = undefined;
    const { options } = this;
    const refill = options.ledger
      .takeBlock({
        runId: options.runId,
        clientId: options.clientId,
        want,
        share: DAY_SHARE,
        claim,
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
      spent: this.counts.answered,
      priority: this.options.priority,
      roundTrips: this.options.ledger.roundTrips,
      waitSeconds: this.counts.waitMs / 1000,
    });
  }

  private granted(grant: Grant): void {
    this.counts.blocks += 1;
    if (grant.granted > 0) this.lastBlock = grant.granted;
    this.lease.moved();
    this.counts.granted += grant.granted;
    this.counts.remaining = grant.remaining;
    this.counts.day = grant.day;
    this.available += grant.granted;
    this.slots = grant.slots;
    if (grant.probe && grant.granted > 0) this.probing = true;
    this.reportNumbers();
    for (const wake of this.slotWaiters.splice(0)) wake();
    // A new quota day ends the yield: the higher claims it gave way to were yesterday's.
    if (grant.yieldTo === undefined && this.yieldTo !== undefined && grant.day !== this.yieldDay) {
      this.options.log.info({ day: grant.day }, "A new quota day: the run no longer yields.");
      this.yieldTo = undefined;
    }
    if (grant.yieldTo !== undefined && this.yieldTo === undefined) {
      this.yieldTo = grant.yieldTo;
      this.yieldDay = grant.day;
      this.options.log.warn(
        { yieldTo: grant.yieldTo, remaining: grant.remaining },
        "A higher-priority pipeline claims the quota that is left; finishing the slices started, then stopping.",
      );
    }
    if (grant.granted > 0) return;
    if (grant.yieldTo !== undefined) this.refusal = this.yieldError();
    else if (grant.exhausted)
      this.refusal = ledgerExhausted(this.options.ledger.describe, grant.remaining, this.options.reserve);
  }
}
