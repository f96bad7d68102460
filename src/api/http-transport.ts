// HTTP for the client: one keep-alive undici Agent (service, token issuer and download hosts) with
// connect, headers and body timeouts and AbortSignal cancellation. No retries here: see service-call.ts.
import { Agent, request } from "undici";
import type { Dispatcher } from "undici";

export interface HttpTimeouts {
  /** TCP and TLS connect. */
  connectMs: number;
  /** From sending until the response headers arrive. */
  headersMs: number;
  /** Longest silence while the body streams. */
  bodyMs: number;
}

export const DEFAULT_TIMEOUTS: HttpTimeouts = { connectMs: 10_000, headersMs: 60_000, bodyMs: 60_000 };

export interface HttpRequest {
  method: "GET" | "POST";
  url: string;
  headers: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
}

/** The parts of an undici response the client reads. */
export interface HttpResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Dispatcher.ResponseData["body"];
}

/**
 * Sends requests over a shared keep-alive pool.
 * @example
 * const http = createHttpTransport({ timeouts: { headersMs: 5000 } });
 * const res = await http.send({ method: "GET", url, headers: {} });
 * await http.close();
 */
export interface HttpTransport {
  send(request: HttpRequest): Promise<HttpResponse>;
  close(): Promise<void>;
}

export interface HttpTransportOptions {
  timeouts?: Partial<HttpTimeouts>;
  /** Sockets per origin. */
  connections?: number;
  /** A dispatcher to use instead of the transport's own agent (which is then not created). */
  dispatcher?: Dispatcher;
}

export function createHttpTransport(options: HttpTransportOptions = {}): HttpTransport {
  const timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
  const ownAgent =
    options.dispatcher === undefined
      ? new Agent({
          connections: options.connections ?? 16,
          keepAliveTimeout: 30_000,
          connect: { timeout: timeouts.connectMs },
          headersTimeout: timeouts.headersMs,
          bodyTimeout: timeouts.bodyMs,
        })
      : undefined;
  const dispatcher: Dispatcher = options.dispatcher ?? (ownAgent as Dispatcher);

  return {
    async send(req) {
      const response = await request(req.url, {
        method: req.method,
        headers: req.headers,
        body: req.body,
        signal: req.signal,
        dispatcher,
        headersTimeout: timeouts.headersMs,
        bodyTimeout: timeouts.bodyMs,
      });
      return { status: response.statusCode, headers: response.headers, body: response.body };
    },
    async close() {
      await ownAgent?.close();
    },
  };
}
