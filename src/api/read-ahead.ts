// Reads a page's body ahead of its decoder. The decoder takes the body no faster than the outputs take
// the hits, but the paging's next request needs only the envelope at the body's end: read ahead, the
// body is in as soon as the network brings it, the envelope is known then, and the next page's
// request goes out while this page is still being decoded (paging/pager.ts). What is read ahead is
// held as bytes and bounded (READ_AHEAD_BYTES not yet decoded); past that the body waits on the wire.
import { Buffer } from "node:buffer";

/** Bytes read but not yet decoded, per body: a page of 10,000 jobs is about 7 MB. */
export const READ_AHEAD_BYTES = 8 * 1024 * 1024;

/** The end of the body kept for its envelope (the cursor after the hits is a few hundred bytes). */
export const TAIL_BYTES = 64 * 1024;

/**
 * Bytes handed to the reader between two turns of the event loop. Chunks already read ahead are
 * handed on in promise callbacks, which run before any I/O: without a turn now and then, a reader
 * with bytes in hand would keep the other pages' sockets (and so the service's writes) waiting.
 */
export const YIELD_EVERY_BYTES = 256 * 1024;

/** A body the transport can cancel: reading stops and the request is let go (BoundedBody). */
export interface CancellableBody extends AsyncIterable<Uint8Array> {
  dump(): Promise<void>;
}

export interface ReadAheadOptions {
  /** Called once with the last bytes of the body (TAIL_BYTES or more, or all) when it is all in. */
  onEnd(tail: Buffer): void;
  /** Bytes read ahead of the reader at most; asked again each time the reader takes a chunk. */
  limit(): number;
  /**
   * Settles when the reader may have its first chunk (a page asked for ahead is decoded only once it
   * is the page being read, so its hits do not wait, decoded, in memory); at once when absent.
   */
  readable?: Promise<void>;
}

/**
 * `body`, read ahead of whoever iterates the result. An error on the way reaches the reader after the
 * bytes before it; a reader that stops early cancels the body.
 * @example
 * const hits = decodeHits(readAhead(answer.body, { onEnd: (tail) => cursorFrom(tail), limit: () => READ_AHEAD_BYTES }), V3_HITS, path);
 */
export function readAhead(body: CancellableBody, options: ReadAheadOptions): AsyncIterable<Uint8Array> {
  return new BodyReadAhead(body, options);
}

class BodyReadAhead implements AsyncIterable<Uint8Array> {
  private readonly queue: Uint8Array[] = [];
  private queuedBytes = 0;
  private ended = false;
  private failure: { error: unknown } | undefined;
  private stopped = false;
  /** The resolvers of the reader's and the pump's last waits: resolving one again does nothing. */
  private wakeReader: (() => void) | undefined;
  private wakePump: (() => void) | undefined;
  private readonly tail: Uint8Array[] = [];
  private tailBytes = 0;

  constructor(
    private readonly body: CancellableBody,
    private readonly options: ReadAheadOptions,
  ) {
    void this.pump();
  }

  private async pump(): Promise<void> {
    try {
      for await (const chunk of this.body) {
        if (this.stopped) return;
        this.queue.push(chunk);
        this.queuedBytes += chunk.length;
        this.keepTail(chunk);
        this.wakeReader?.();
        while (this.queuedBytes >= this.options.limit() && !this.stopped) {
          await new Promise<void>((resolve) => (this.wakePump = resolve));
        }
        if (this.stopped) return;
      }
      this.ended = true;
      this.wakeReader?.();
      this.announceEnd();
    } catch (error) {
      this.failure = { error };
      this.wakeReader?.();
    }
  }

  private keepTail(chunk: Uint8Array): void {
    this.tail.push(chunk);
    this.tailBytes += chunk.length;
    while (this.tail.length > 1 && this.tailBytes - (this.tail[0] as Uint8Array).length >= TAIL_BYTES) {
      this.tailBytes -= (this.tail.shift() as Uint8Array).length;
    }
  }

  private announceEnd(): void {
    try {
      this.options.onEnd(Buffer.concat(this.tail, this.tailBytes));
    } catch {
      // Reading ahead is only a head start: a hook that fails leaves the body to its reader.
    }
  }

  private take(): Uint8Array | undefined {
    // Per chunk, not per hit: a body read ahead holds a few hundred chunks at most.
    const chunk = this.queue.shift();
    if (chunk === undefined) return undefined;
    this.queuedBytes -= chunk.length;
    this.wakePump?.();
    return chunk;
  }

  private stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.wakePump?.();
    if (!this.ended && this.failure === undefined) void this.body.dump();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Uint8Array> {
    let taken = 0;
    try {
      if (this.options.readable !== undefined) await this.options.readable;
      for (;;) {
        const chunk = this.take();
        if (chunk !== undefined) {
          yield chunk;
          taken += chunk.length;
          if (taken >= YIELD_EVERY_BYTES) {
            taken = 0;
            await new Promise<void>((resolve) => setImmediate(resolve));
          }
          continue;
        }
        if (this.failure !== undefined) throw this.failure.error;
        if (this.ended) return;
        await new Promise<void>((resolve) => (this.wakeReader = resolve));
      }
    } finally {
      this.stop();
    }
  }
}
