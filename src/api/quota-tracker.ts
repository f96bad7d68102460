// The client's single view of the daily request quota, fed by every successful response.
import { QuotaExhaustedError } from "../errors.js";
import type { Clock } from "./clock.js";
import { systemClock } from "./clock.js";
import type { QuotaGate } from "../core/quota-gate.js";
import { valueAt } from "./wire/request-spec.js";

interface QuotaTrackerOptions {
  /** Requests to keep in hand: once the remaining count (minus requests in flight) reaches it, stop. */
  reserve?: number;
  /**
   * How long the lowest reported value stands before a higher one may replace it. Concurrent responses
   * arrive out of order, so a higher count seen soon after is stale; a higher count much later means
   * the day's quota was renewed.
   */
  staleAfterMs?: number;
  clock?: Clock;
  /** The run's share of a fleet's quota (the quota ledger); each request then waits for its permit. */
  gate?: QuotaGate;
}

/** What the tracker knows, for progress output and the planner. */
interface QuotaSnapshot {
  /** Lowest recent `daily_remaining` the service reported; undefined before the first response. */
  remaining: number | undefined;
  reserve: number;
  inFlight: number;
}

/**
 * One per client. `acquire` before sending (refuses at the reserve), `release` when the request ends,
 * `observe` each reported remaining count.
 * @example
 * const quota = new QuotaTracker({ reserve: 50 });
 * quota.acquire("/v3/jobs/query"); try { ...; quota.observe(body.meta.rate_limit.daily_remaining); } finally { quota.release(); }
 */
export class QuotaTracker {
  readonly reserve: number;
  private readonly staleAfterMs: number;
  private readonly clock: Clock;
  private lowest: { value: number; at: number } | undefined;
  private inFlight = 0;
  private readonly gate: QuotaGate | undefined;

  constructor(options: QuotaTrackerOptions = {}) {
    this.gate = options.gate;
    this.reserve = Math.max(0, options.reserve ?? 0);
    this.staleAfterMs = options.staleAfterMs ?? 60_000;
    this.clock = options.clock ?? systemClock;
  }

  get remaining(): number | undefined {
    return this.lowest?.value;
  }

  snapshot(): QuotaSnapshot {
    return { remaining: this.remaining, reserve: this.reserve, inFlight: this.inFlight };
  }

  /** Counts a request as sent, or throws QuotaExhaustedError when it would eat into the reserve. */
  acquire(operation: string): void {
    const remaining = this.remaining;
    // Requests already in flight will each spend one, so they come off what is left before comparing.
    if (remaining !== undefined && remaining - this.inFlight <= this.reserve) {
      throw new QuotaExhaustedError(
        `not sending ${operation}: ${remaining} daily requests remain (${this.inFlight} in flight) and the reserve is ${this.reserve}; resume when the quota renews`,
        remaining,
        this.reserve,
      );
    }
    this.inFlight += 1;
  }

  /**
   * `acquire`, then the gate's permit when the run shares a fleet's quota: the one call before a
   * request is sent. A permit refused gives the slot back and throws.
   */
  async admit(operation: string, signal?: AbortSignal): Promise<void> {
    this.acquire(operation);
    if (this.gate === undefined) return;
    try {
      await this.gate.permit(operation, signal);
    } catch (error) {
      this.inFlight = Math.max(0, this.inFlight - 1);
      throw error;
    }
  }

  /** The request admitted ended (answered or failed). */
  release(): void {
    this.inFlight = Math.max(0, this.inFlight - 1);
    this.gate?.answered();
  }

  /** Records a reported remaining count, keeping the lowest recent one. */
  observe(value: number): void {
    this.gate?.observe(value);
    const now = this.clock.now();
    const current = this.lowest;
    if (current === undefined || value <= current.value || now - current.at > this.staleAfterMs) {
      this.lowest = { value, at: now };
    }
  }

  /** The service said the quota is gone (429): remember it so nothing else is sent. */
  markExhausted(): void {
    this.gate?.observe(0);
    this.lowest = { value: 0, at: this.clock.now() };
  }
}

/** The remaining daily quota a response reports: flat in v1, under `meta.rate_limit` in v2 and v3. */
export function reportedRemaining(data: unknown): number | undefined {
  const flat = valueAt(data, ["daily_requests_remaining"]);
  if (typeof flat === "number") return flat;
  const value = valueAt(data, ["meta", "rate_limit", "daily_remaining"]);
  return typeof value === "number" ? value : undefined;
}
