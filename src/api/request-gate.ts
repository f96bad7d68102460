// The door every request to the service passes: at most the adaptive limit of requests wait for an
// answer at once (adaptive-concurrency.ts), the others queue in the order they came. A request holds
// its place from the moment it is sent until the service answers (the status line and headers):
// reading the body afterwards is paced by our outputs, not by the service, and a pager asks for its
// next page while it still reads the last one. The gate also keeps the round trips it saw, which
// `plan` turns into its estimate of the run's time.
import { whenAborted } from "../core/when-aborted.js";
import type { AdaptiveConcurrency, AnsweredRequest } from "./adaptive-concurrency.js";

/** A request let through: call `answered` (or `failed` when no answer came) exactly once. */
export interface GatePass {
  /** The service answered; `overloaded` when it pushed back (429 that is not the quota, 503). */
  answered(overloaded: boolean): void;
  /** No answer (a network error, an abort): the place is given back, nothing is learnt. */
  failed(): void;
}

interface Waiter {
  admit(): void;
}

/**
 * @example
 * const pass = await gate.enter(signal);
 * try { const response = await send(); pass.answered(response.status === 503); } catch (e) { pass.failed(); throw e; }
 */
export class RequestGate {
  private inFlight = 0;
  private readonly queue: Waiter[] = [];
  private rttMin: number | undefined;

  constructor(
    private readonly controller: AdaptiveConcurrency,
    private readonly now: () => number,
  ) {}

  /** Requests that may wait for an answer at once now. */
  get limit(): number {
    return this.controller.limit;
  }

  /**
   * The quickest round trip so far of the answers that were not push-backs: the first requests of a
   * process also pay for connections and a cold start, so the quickest is the one to plan with.
   */
  latency(): { minMs: number | undefined } {
    return { minMs: this.rttMin };
  }

  /** Resolves when the request may be sent; rejects with the signal's reason if it is aborted first. */
  enter(signal?: AbortSignal): Promise<GatePass> {
    if (signal?.aborted === true) return Promise.reject(signal.reason as unknown);
    if (this.queue.length === 0 && this.inFlight < this.controller.limit)
      return Promise.resolve(this.admit());
    return new Promise<GatePass>((resolve, reject) => {
      const waiter: Waiter = {
        admit: () => {
          stopFollowing();
          resolve(this.admit());
        },
      };
      const stopFollowing = whenAborted(signal, () => {
        const index = this.queue.indexOf(waiter);
        if (index >= 0) this.queue.splice(index, 1);
        reject(signal?.reason as unknown);
      });
      this.queue.push(waiter);
    });
  }

  private admit(): GatePass {
    this.inFlight += 1;
    this.controller.sent(this.inFlight);
    const sentAt = this.now();
    let done = false;
    const leave = (request: AnsweredRequest | undefined): void => {
      if (done) return;
      done = true;
      this.inFlight -= 1;
      if (request !== undefined) {
        if (!request.overloaded) this.rttMin = Math.min(this.rttMin ?? request.rttMs, request.rttMs);
        this.controller.answered(request);
      }
      this.admitWaiting();
    };
    return {
      answered: (overloaded) => leave({ rttMs: this.now() - sentAt, overloaded }),
      failed: () => leave(undefined),
    };
  }

  /** Lets queued requests through while the limit (perhaps just raised) has room. */
  private admitWaiting(): void {
    while (this.queue.length > 0 && this.inFlight < this.controller.limit) this.queue.shift()?.admit();
  }
}
