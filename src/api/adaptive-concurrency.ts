// How many requests may wait for the service's answer at once: a limit between 1 and the pipeline's
// `limits.concurrency` that the service's answers move, in the spirit of Vector's adaptive request
// concurrency (ARC), itself after TCP's congestion control. Time is cut into windows about one
// round trip long; at the end of each, the limit goes down by a ratio when the service pushed back (a
// 429 that is not the day's quota, a 503) or answered clearly slower than it used to, and up by one
// when the limit was reached, nothing pushed back and the answers came no slower than usual.
//
// Unlike Vector, the limit starts at the maximum rather than at 1: the maximum is what the pipeline
// asks for and what runs measured against a healthy service, so a healthy run is never slower than a
// fixed concurrency; the controller only gives way when the service says it is overloaded.

/** The tuning of the controller: Vector's, except `minRise` (see below). */
const TUNING = {
  /** The limit is multiplied by this (and rounded down, never below 1) on a decrease. */
  decreaseRatio: 0.9,
  /** Weight of the newest window in the moving average of round-trip times. */
  ewmaAlpha: 0.4,
  /** A window is slower than usual past this many deviations above the average. */
  deviationScale: 2.5,
  /**
   * ...and past this share above the average: a service with a steady latency has a deviation near 0,
   * and its jitter of a millisecond must not read as overload.
   */
  minRise: 0.5,
  /** ...and past this many milliseconds: loopback and LAN jitter is never overload. */
  minRiseMs: 20,
  /**
   * Slower windows in a row before the limit goes down for latency alone. A round trip is measured
   * on this process's event loop, which a row group being encoded can hold for tens of milliseconds:
   * one slow window is as often our own pause as the service's.
   */
  slowWindows: 2,
} as const;

interface AdaptiveConcurrencyOptions {
  /** The highest limit (`limits.concurrency`); the limit starts there. */
  max: number;
  /** Milliseconds, monotonic enough to measure round trips; tests inject their own. */
  now: () => number;
  /** Told of every change of the limit (the run's metrics and report). */
  onChange?: (limit: number) => void;
}

/** One request the service answered: how long it took and whether the service pushed back. */
export interface AnsweredRequest {
  rttMs: number;
  overloaded: boolean;
}

/** An exponentially weighted moving average and variance of round-trip times. */
interface MovingRtt {
  mean: number;
  variance: number;
}

interface RttWindow {
  startedAt: number;
  rttSum: number;
  answered: number;
  overloaded: boolean;
  /** A request was sent while the limit was taken up: more could have been sent. */
  reachedLimit: boolean;
}

/**
 * @example
 * const arc = new AdaptiveConcurrency({ max: 4, now: () => performance.now() });
 * arc.sent(inFlight); ... arc.answered({ rttMs: 120, overloaded: status === 503 });
 * arc.limit; // 1..4
 */
export class AdaptiveConcurrency {
  readonly max: number;
  private current: number;
  private readonly now: () => number;
  private readonly onChange: ((limit: number) => void) | undefined;
  private past: MovingRtt | undefined;
  private window: RttWindow;
  /** Windows in a row whose answers came clearly slower than the average. */
  private slowInARow = 0;

  constructor(options: AdaptiveConcurrencyOptions) {
    this.max = Math.max(1, Math.floor(options.max));
    this.current = this.max;
    this.now = options.now;
    this.onChange = options.onChange;
    this.window = this.newWindow();
  }

  /** Requests that may wait for an answer at once: 1 ≤ limit ≤ max. */
  get limit(): number {
    return this.current;
  }

  /** A request leaves; `inFlight` requests (it included) now wait for an answer. */
  sent(inFlight: number): void {
    if (inFlight >= this.current) this.window.reachedLimit = true;
  }

  /** The service answered a request; the window ends, and the limit moves, once it is a round trip long. */
  answered(request: AnsweredRequest): void {
    const window = this.window;
    if (request.overloaded) window.overloaded = true;
    // A push-back comes back at once and says nothing about how fast the service works.
    else {
      window.rttSum += Math.max(0, request.rttMs);
      window.answered += 1;
    }
    const now = this.now();
    if (now - window.startedAt < (this.past?.mean ?? 0)) return;
    this.adjust(window);
    this.window = this.newWindow();
  }

  private newWindow(): RttWindow {
    return { startedAt: this.now(), rttSum: 0, answered: 0, overloaded: false, reachedLimit: false };
  }

  private adjust(window: RttWindow): void {
    const rtt = window.answered > 0 ? window.rttSum / window.answered : undefined;
    const past = this.past;
    const deviation = past === undefined ? 0 : Math.sqrt(past.variance);
    const { deviationScale, minRise, minRiseMs } = TUNING;
    const slower =
      rtt !== undefined &&
      past !== undefined &&
      rtt > past.mean + Math.max(deviationScale * deviation, minRise * past.mean, minRiseMs);
    // As fast as usual: within one deviation of the average (Vector asks for at most the average, which
    // a noisy but healthy service misses in every other window).
    const usual = rtt === undefined || past === undefined || rtt <= past.mean + deviation;
    this.slowInARow = slower ? this.slowInARow + 1 : 0;
    let next = this.current;
    if (window.overloaded || this.slowInARow >= TUNING.slowWindows) {
      this.slowInARow = 0;
      next = Math.max(1, Math.floor(this.current * TUNING.decreaseRatio));
      // A ratio that rounds back to the same limit would never give way.
      if (next === this.current) next = Math.max(1, this.current - 1);
    } else if (window.reachedLimit && usual) {
      next = Math.min(this.max, this.current + 1);
    }
    // The average learns from windows without push-back only (a throttled window's times are not the
    // service's pace), and not from a slow window that has not yet lowered the limit: a lasting slowdown
    // must still stand out in the next window.
    if (rtt !== undefined && !window.overloaded && this.slowInARow === 0) this.past = this.updated(past, rtt);
    if (next !== this.current) {
      this.current = next;
      this.onChange?.(next);
    }
  }

  private updated(past: MovingRtt | undefined, rtt: number): MovingRtt {
    if (past === undefined) return { mean: rtt, variance: 0 };
    const alpha = TUNING.ewmaAlpha;
    const diff = rtt - past.mean;
    const increment = alpha * diff;
    return { mean: past.mean + increment, variance: (1 - alpha) * (past.variance + diff * increment) };
  }
}
