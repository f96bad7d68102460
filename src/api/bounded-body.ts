// A response body that cannot outgrow its byte cap or outlive its attempt's deadline: every reader
// (text, an excerpt of an error body, a streaming decoder) goes through the same counted iterator,
// and passing the cap or the deadline cancels the request so no more bytes are even received.
import type { Dispatcher } from "undici";

type UndiciBody = Dispatcher.ResponseData["body"];

/** Why the transport stopped reading, by its code: the cap in bytes, the deadline in milliseconds. */
const BOUNDS = {
  RESPONSE_TOO_LARGE: (bytes: number) =>
    `the response body exceeded ${bytes} bytes (service.limits.max_response_bytes)`,
  RESPONSE_DEADLINE: (ms: number) =>
    `no complete response within ${ms} ms (service.timeouts.request_ms covers headers and body)`,
  CLIENT_CLOSED: () => "the client was closed while the request was in flight",
};

/** Why the transport stopped reading: the byte cap, the whole-attempt deadline, or the client closing. */
export class ResponseBoundError extends Error {
  override readonly name = "ResponseBoundError";

  /** `limit`: the cap in bytes or the deadline in milliseconds. */
  constructor(
    readonly code: keyof typeof BOUNDS,
    readonly limit = 0,
  ) {
    super(BOUNDS[code](limit));
  }
}

interface BoundedBodyOptions {
  maxBytes: number;
  /** Aborting it cancels the request; its reason says why (deadline, close, caller's signal). */
  attempt: AbortController;
  /** Called once, when the body is read to its end, fails, or is discarded. */
  onSettled: () => void;
}

/**
 * @example
 * const text = await response.body.text();           // whole body, within the cap
 * const detail = await response.body.excerpt(4096);  // first bytes of an error body, rest discarded
 * for await (const chunk of response.body) decode(chunk);
 */
export class BoundedBody implements AsyncIterable<Uint8Array> {
  private settled = false;

  constructor(
    private readonly source: UndiciBody,
    private readonly options: BoundedBodyOptions,
  ) {}

  async *[Symbol.asyncIterator](): AsyncGenerator<Uint8Array> {
    let received = 0;
    try {
      for await (const chunk of this.source) {
        const bytes = chunk as Uint8Array;
        received += bytes.length;
        if (received > this.options.maxBytes) {
          const error = new ResponseBoundError("RESPONSE_TOO_LARGE", this.options.maxBytes);
          this.options.attempt.abort(error);
          throw error;
        }
        yield bytes;
      }
    } catch (error) {
      const reason: unknown = this.options.attempt.signal.reason;
      throw reason instanceof ResponseBoundError ? reason : error;
    } finally {
      this.discard();
    }
  }

  /** The whole body as UTF-8 text; throws ResponseBoundError past the cap or the deadline. */
  async text(): Promise<string> {
    const chunks: Uint8Array[] = [];
    for await (const chunk of this) chunks.push(chunk);
    return Buffer.concat(chunks).toString("utf8");
  }

  /** At most the first `bytes` bytes as text (an error body's message); the rest is never read. */
  async excerpt(bytes: number): Promise<string> {
    const chunks: Uint8Array[] = [];
    let length = 0;
    for await (const chunk of this) {
      chunks.push(chunk);
      length += chunk.length;
      if (length >= bytes) break;
    }
    return Buffer.concat(chunks).subarray(0, bytes).toString("utf8");
  }

  /** Drops the body without reading it: the request is cancelled, so nothing more arrives. */
  async dump(): Promise<void> {
    this.discard();
    await Promise.resolve();
  }

  private discard(): void {
    if (this.settled) return;
    this.settled = true;
    this.options.onSettled();
    if (this.source.destroyed) return;
    // Destroying an unfinished body makes undici emit "Request aborted" on it; nobody reads a
    // discarded body, so that error must not surface as an unhandled stream error.
    this.source.on("error", () => undefined);
    this.source.destroy();
  }
}
