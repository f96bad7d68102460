// Requests sent before the code that reads them runs: a run asks for its first slices' first pages
// while the service's mappings are on their way, so one round trip less stands before the first hit.
// An early answer is taken by the first attempt of the identical call (the same operation and body,
// byte for byte) and read as its own; one nobody takes is dropped: its request cancelled, its quota
// slot given back. Only requests that can be sent twice without harm belong here (a first
// point-in-time page: nothing on the server moves until its answer is read and followed).
import { assertValidRequest } from "./request-validation.js";
import { sendAuthorized } from "./service-answer.js";
import type { OperationPath } from "./wire/operations.js";
import type { EarlyAnswer, RequestOf, ServiceCall, ServiceCallDeps } from "./service-operation.js";

interface Waiting extends EarlyAnswer {
  key: string;
}

const keyOf = (path: string, body: unknown): string => `${path}\n${JSON.stringify(body)}`;

export class EarlyAnswers {
  private readonly waiting = new Map<string, Waiting>();

  constructor(private readonly deps: ServiceCallDeps) {}

  /**
   * Sends `body` to `path` now, holding a quota slot until the answer is taken or dropped. False, and
   * nothing sent, when the quota is at its reserve or the same request is already waiting.
   */
  send<P extends OperationPath>(path: P, body: RequestOf<P>): boolean {
    const key = keyOf(path, body);
    if (this.waiting.has(key)) return false;
    assertValidRequest(path, body);
    if (!this.deps.quota.tryAdmit(path)) return false;
    const controller = new AbortController();
    const call: ServiceCall<P> = { path, body, signal: controller.signal, movesCursor: false };
    const answer = sendAuthorized(this.deps, call);
    // A failure is the taking attempt's to judge (retried like any); untaken, nobody waits on it.
    answer.catch(() => undefined);
    this.waiting.set(key, { key, answer, cancel: (reason) => controller.abort(reason) });
    return true;
  }

  /** The answer sent early for exactly this call, once; its quota slot is the caller's from now on. */
  take(call: ServiceCall<OperationPath>): EarlyAnswer | undefined {
    if (this.waiting.size === 0) return undefined;
    const key = keyOf(call.path, call.body);
    const early = this.waiting.get(key);
    if (early === undefined) return undefined;
    this.waiting.delete(key);
    const { signal } = call;
    if (signal !== undefined) {
      if (signal.aborted) early.cancel(signal.reason);
      else signal.addEventListener("abort", () => early.cancel(signal.reason), { once: true });
    }
    return early;
  }

  /** How many answers wait to be taken. */
  get size(): number {
    return this.waiting.size;
  }

  /** Cancels every answer nobody took and gives their quota slots back; how many there were. */
  drop(): number {
    const dropped = this.waiting.size;
    for (const early of this.waiting.values()) {
      early.cancel(new Error("an early request nobody took was dropped"));
      early.answer.then((answer) => answer.body.dump()).catch(() => undefined);
      this.deps.quota.release();
    }
    this.waiting.clear();
    return dropped;
  }
}
