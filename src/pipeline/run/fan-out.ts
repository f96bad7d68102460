// Sends every batch to several consumers (one per sink), advancing only when all have taken it,
// so the slowest sink sets the pace and memory holds one batch per consumer at most.

interface Waiter<T> {
  resolve: (result: IteratorResult<T>) => void;
  reject: (error: unknown) => void;
}

/**
 * Splits one async iterable into `count` iterables that each see every item, in order.
 * The source is pulled once per item, after every consumer has asked for it. If a consumer stops
 * early (break or error), the others go on; the source is closed when all have stopped.
 */
export function fanOut<T>(input: AsyncIterable<T>, count: number): AsyncIterable<T>[] {
  if (count === 1) return [input];
  const iterator = input[Symbol.asyncIterator]();
  const waiting = new Map<number, Waiter<T>>();
  const active = new Set<number>(Array.from({ length: count }, (_, index) => index));
  let pulling = false;
  let ended: { error?: unknown } | undefined;

  const settleAll = (settle: (waiter: Waiter<T>) => void): void => {
    for (const waiter of waiting.values()) settle(waiter);
    waiting.clear();
  };

  const maybePull = (): void => {
    if (pulling || ended !== undefined || active.size === 0) return;
    for (const index of active) if (!waiting.has(index)) return;
    pulling = true;
    iterator.next().then(
      (result) => {
        pulling = false;
        if (result.done === true) ended = {};
        settleAll((waiter) => waiter.resolve(result));
      },
      (error: unknown) => {
        pulling = false;
        ended = { error };
        settleAll((waiter) => waiter.reject(error));
      },
    );
  };

  const leave = async (index: number): Promise<void> => {
    active.delete(index);
    waiting.delete(index);
    if (active.size === 0 && ended === undefined) {
      ended = {};
      await iterator.return?.();
    } else {
      maybePull();
    }
  };

  return Array.from({ length: count }, (_, index) => ({
    [Symbol.asyncIterator](): AsyncIterator<T> {
      return {
        next: () => {
          if (ended !== undefined) {
            return ended.error === undefined
              ? Promise.resolve({ done: true, value: undefined })
              : Promise.reject(ended.error);
          }
          return new Promise<IteratorResult<T>>((resolve, reject) => {
            waiting.set(index, { resolve, reject });
            maybePull();
          });
        },
        return: async () => {
          await leave(index);
          return { done: true, value: undefined };
        },
      };
    },
  }));
}
