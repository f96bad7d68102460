// HTTP for the client: a keep-alive undici Agent per transport (the client keeps one for the service
// and its token issuer, one for download hosts) with a connect timeout, a whole-attempt deadline and a
// byte cap on every response, and AbortSignal cancellation. No retries here: see service-call.ts.
// Decoders (text, JSON, streamed hits, partition records) sit on top of `response.body`, so every one
// of them inherits the deadline and the cap.
import type { LookupFunction } from "node:net";
import { Agent, request } from "undici";
import type { Dispatcher } from "undici";
import { BoundedBody, ResponseBoundError } from "./bounded-body.js";

export interface HttpTimeouts {
  /** TCP and TLS connect. */
  connectMs: number;
  /** One attempt from sending until the last byte of the body: headers and body together. */
  requestMs: number;
}

const DEFAULT_TIMEOUTS: HttpTimeouts = { connectMs: 10_000, requestMs: 60_000 };

/** The v3 safe payload limit is not published; the emulator's 16 MiB plus margin for the envelope. */
const DEFAULT_MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

export interface HttpRequest {
  method: "GET" | "POST";
  url: string;
  headers: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
  /** Overrides the transport's byte cap for this response (partition files are larger than pages). */
  maxResponseBytes?: number;
  /** Overrides the transport's whole-attempt deadline for this request. */
  deadlineMs?: number;
}

/** The parts of a response the client reads; the body enforces the deadline and the byte cap. */
export interface HttpResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: BoundedBody;
}

/**
 * Sends requests over a shared keep-alive pool.
 * @example
 * const http = createHttpTransport({ timeouts: { requestMs: 5000 }, maxResponseBytes: 1 << 20 });
 * const res = await http.send({ method: "GET", url, headers: {} });
 * const text = await res.body.text(); // throws ResponseBoundError past 1 MiB or 5 s
 * await http.close();
 */
export interface HttpTransport {
  send(request: HttpRequest): Promise<HttpResponse>;
  /** Cancels every request in flight, then closes the pool: never waits on a silent server. */
  close(): Promise<void>;
}

export interface HttpTransportOptions {
  timeouts?: Partial<HttpTimeouts>;
  /** Largest response body read, in bytes. */
  maxResponseBytes?: number;
  /** Sockets per origin. */
  connections?: number;
  /** A dispatcher to use instead of the transport's own agent (which is then not created). */
  dispatcher?: Dispatcher;
  /** Name resolution for the transport's own agent's connections (the download links' guard). */
  lookup?: LookupFunction;
}

export function createHttpTransport(options: HttpTransportOptions = {}): HttpTransport {
  const timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
  const maxBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const ownAgent =
    options.dispatcher === undefined
      ? new Agent({
          connections: options.connections ?? 16,
          keepAliveTimeout: 30_000,
          connect: {
            timeout: timeouts.connectMs,
            ...(options.lookup === undefined ? {} : { lookup: options.lookup }),
          },
        })
      : undefined;
  const dispatcher: Dispatcher = options.dispatcher ?? (ownAgent as Dispatcher);
  const inFlight = new Set<AbortController>();

  return {
    async send(req) {
      const deadlineMs = req.deadlineMs ?? timeouts.requestMs;
      const attempt = new AbortController();
      inFlight.add(attempt);
      const timer = setTimeout(
        () => attempt.abort(new ResponseBoundError("RESPONSE_DEADLINE", deadlineMs)),
        deadlineMs,
      );
      const settle = (): void => {
        clearTimeout(timer);
        inFlight.delete(attempt);
      };
      // A response nobody reads is let go when its deadline passes.
      attempt.signal.addEventListener("abort", settle, { once: true });
      const signal =
        req.signal === undefined ? attempt.signal : AbortSignal.any([req.signal, attempt.signal]);
      try {
        const response = await request(req.url, {
          method: req.method,
          headers: req.headers,
          body: req.body,
          signal,
          dispatcher,
          // The deadline above covers both; undici's own idle timers only as a backstop.
          headersTimeout: deadlineMs,
          bodyTimeout: deadlineMs,
        });
        const body = new BoundedBody(response.body, {
          maxBytes: req.maxResponseBytes ?? maxBytes,
          attempt,
          onSettled: settle,
        });
        return { status: response.statusCode, headers: response.headers, body };
      } catch (error) {
        settle();
        throw attempt.signal.aborted && !(req.signal?.aborted ?? false) ? attempt.signal.reason : error;
      }
    },
    async close() {
      for (const attempt of inFlight) attempt.abort(new ResponseBoundError("CLIENT_CLOSED"));
      inFlight.clear();
      await ownAgent?.destroy();
    },
  };
}
