// Work that follows a signal it does not own (the run's, a caller's): one place for "react once when
// it aborts, at once if it already has, and stop listening when the work is over".
//
// Why not `AbortSignal.any`: on Node 20 each combined signal stays in its sources' list of dependants
// even after collection (nodejs/node#55351), so a run's long-lived signal combined once per wait or
// page grows with every one. A listener removed when the work settles leaves nothing behind.

/**
 * Calls `onAbort` once when `signal` aborts, or now if it already has (then before this returns), and
 * returns the function that stops listening, to call when the work has settled.
 * @example
 * const stopFollowing = whenAborted(parent, () => controller.abort(parent?.reason));
 * try { await work(controller.signal); } finally { stopFollowing(); }
 */
export function whenAborted(signal: AbortSignal | undefined, onAbort: () => void): () => void {
  if (signal === undefined) return () => undefined;
  if (signal.aborted) {
    onAbort();
    return () => undefined;
  }
  signal.addEventListener("abort", onAbort, { once: true });
  return () => signal.removeEventListener("abort", onAbort);
}
