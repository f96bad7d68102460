// Keeps the wire busy: pulls the next page from a source while the current one is transformed and written.

/**
 * Reads one item ahead. Errors surface at the position they happened; breaking out of the consumer
 * returns the producer, so remote state is released in its `finally`.
 * @example for await (const batch of prefetch(source(ctx))) write(batch);
 */
export async function* prefetch<T>(input: AsyncIterable<T>): AsyncGenerator<T> {
  const iterator = input[Symbol.asyncIterator]();
  const pull = (): Promise<IteratorResult<T>> => {
    const next = iterator.next();
    // A rejection is observed when its turn comes; this only silences the early unhandled warning.
    next.catch(() => undefined);
    return next;
  };
  // The pull not yet consumed; undefined once the source has ended.
  let ahead: Promise<IteratorResult<T>> | undefined = pull();
  try {
    for (;;) {
      const result: IteratorResult<T> = await ahead;
      if (result.done === true) {
        ahead = undefined;
        return;
      }
      ahead = pull();
      yield result.value;
    }
  } finally {
    if (ahead !== undefined) {
      // Let the pending pull settle before returning, so the generator is not re-entered while running.
      await Promise.allSettled([ahead]);
      await iterator.return?.();
    }
  }
}
