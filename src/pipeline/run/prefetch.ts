// Keeps the wire busy: pulls the next page from a source while the current one is transformed and written.

/**
 * Reads ahead up to `depth` items. Errors surface at the position they happened; breaking out of the
 * consumer returns the producer, so remote state is released in its `finally`.
 * @example for await (const batch of prefetch(source(ctx), 1)) write(batch);
 */
export async function* prefetch<T>(input: AsyncIterable<T>, depth = 1): AsyncGenerator<T> {
  const iterator = input[Symbol.asyncIterator]();
  const ahead: Promise<IteratorResult<T>>[] = [];
  const pull = (): void => {
    const next = iterator.next();
    // A rejection is observed when its turn comes; this only silences the early unhandled warning.
    next.catch(() => undefined);
    ahead.push(next);
  };
  let finished = false;
  try {
    pull();
    while (ahead.length > 0) {
      const current = ahead.shift() as Promise<IteratorResult<T>>;
      const result = await current;
      if (result.done === true) {
        finished = true;
        return;
      }
      while (ahead.length < depth) pull();
      yield result.value;
    }
  } finally {
    if (!finished) {
      // Let pending pulls settle before returning, so the generator is not re-entered while running.
      await Promise.allSettled(ahead);
      await iterator.return?.();
    }
  }
}
