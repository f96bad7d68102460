// A bounded hand-over from concurrent producers (partition downloads) to one consumer (the pager):
// producers wait while it is full, so nothing is fetched faster than the consumer takes it.

/**
 * @example
 * const queue = new PageQueue<number>(4);
 * void (async () => { await queue.push(1); queue.close(); })();
 * for await (const item of queue) use(item);
 */
export class PageQueue<T> {
  private readonly items: T[] = [];
  private wakeConsumer: (() => void) | undefined;
  private readonly wakeProducers: (() => void)[] = [];
  private closed = false;
  private failure: { error: unknown } | undefined;

  constructor(private readonly capacity: number) {}

  async push(item: T): Promise<void> {
    while (this.items.length >= this.capacity && this.failure === undefined) {
      await new Promise<void>((resolve) => this.wakeProducers.push(resolve));
    }
    if (this.failure !== undefined) throw this.failure.error;
    this.items.push(item);
    this.wake();
  }

  /** No more items will come. */
  close(): void {
    this.closed = true;
    this.wake();
  }

  /** The consumer sees `error` next, and waiting producers are released with it. */
  fail(error: unknown): void {
    this.failure ??= { error };
    this.wake();
    for (const resolve of this.wakeProducers.splice(0)) resolve();
  }

  private wake(): void {
    const resolve = this.wakeConsumer;
    this.wakeConsumer = undefined;
    resolve?.();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T> {
    for (;;) {
      if (this.failure !== undefined) throw this.failure.error;
      const item = this.items.shift();
      if (item !== undefined) {
        this.wakeProducers.shift()?.();
        yield item;
        continue;
      }
      if (this.closed) return;
      await new Promise<void>((resolve) => (this.wakeConsumer = resolve));
    }
  }
}
