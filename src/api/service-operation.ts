// One operation of the service as the client sends it: its request and response types from the wire
// schemas, and what sending it needs (transport, token, quota, retry policy, clock, logger).
import type { BoundedBody } from "./bounded-body.js";
import type { z } from "zod";
import type { Logger } from "../logger.js";
import type { RunObserver } from "../core/run-observer.js";
import type { OPERATIONS, OperationPath } from "./wire/operations.js";
import type { Clock } from "./clock.js";
import type { HttpTransport } from "./http-transport.js";
import type { QuotaTracker } from "./quota-tracker.js";
import type { RetryPolicy } from "./retry-policy.js";
import type { TokenProvider } from "./token-provider.js";
import type { RequestGate } from "./request-gate.js";

/** The request body an operation takes, as its wire schema types it. */
export type RequestOf<P extends OperationPath> = z.input<(typeof OPERATIONS)[P]["request"]["base"]>;

/** The parsed response of an operation. */
export type ResponseOf<P extends OperationPath> = z.infer<(typeof OPERATIONS)[P]["response"]>;

export interface ServiceCallDeps {
  baseUrl: string;
  http: HttpTransport;
  tokens: TokenProvider;
  quota: QuotaTracker;
  retry: RetryPolicy;
  clock: Clock;
  random: () => number;
  logger: Logger;
  userAgent: string;
  observer: RunObserver;
  /** Bounds the requests waiting for the service's answer (adaptive concurrency). */
  gate: RequestGate;
}

/** A 2xx answer whose body is still to be read. */
export interface OpenAnswer {
  status: number;
  body: BoundedBody;
}

/** One operation as the client sends it. */
export interface ServiceCall<P extends OperationPath> {
  path: P;
  body: RequestOf<P>;
  signal?: AbortSignal | undefined;
  /**
   * The request moves a server-side cursor (a scroll continuation): a 2xx whose body breaks is then
   * not resent (the page would be skipped) but fails with code RESPONSE_LOST.
   */
  movesCursor: boolean;
}
