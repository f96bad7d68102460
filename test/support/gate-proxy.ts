// An HTTP proxy in front of a test's emulator that can hold one request: a test freezes a running
// process at a chosen moment (say, once it holds its output lock) without timing, then lets it go.
// Given `rewrite`, it is also a hostile service: it changes chosen bytes of the answers (a long's
// digits, a key's spelling) on their way.
import { createServer, request } from "node:http";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface Gate {
  /** Resolves when a request was held. */
  reached: Promise<void>;
  release(): void;
}

export interface GateProxy {
  url: string;
  /** Holds the first request that arrives while `when()` is true, until the gate is released. */
  holdWhen(when: () => boolean | Promise<boolean>): Gate;
  /**
   * The most requests that waited for the service's answer at once (from their arrival to the answer's
   * status line) since the proxy started or since the last call, which starts the count again.
   */
  takePeakInFlight(): number;
  /**
   * Holds every request until `count` are in flight at once, then lets them all go: a test sees a
   * client reach its limit without depending on how fast the answers come.
   */
  holdUntilInFlight(count: number): void;
  close(): Promise<void>;
}

export interface GateProxyOptions {
  /** The answer's body as the client gets it, from the emulator's body for the request's path. */
  rewrite?: (path: string, body: Buffer) => Buffer;
}

export async function startGateProxy(target: string, options: GateProxyOptions = {}): Promise<GateProxy> {
  const { rewrite } = options;
  const upstream = new URL(target);
  let armed:
    { when: () => boolean | Promise<boolean>; reached: () => void; opened: Promise<void> } | undefined;
  let inFlight = 0;
  let peak = 0;
  let barrier: { count: number; open: Promise<void>; release: () => void } | undefined;
  const forward = (incoming: IncomingMessage, response: ServerResponse, answered: () => void): void => {
    const outgoing = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: incoming.method,
        path: incoming.url,
        // A body to rewrite comes as plain text.
        headers: {
          ...incoming.headers,
          host: upstream.host,
          ...(rewrite === undefined ? {} : { "accept-encoding": "identity" }),
        },
      },
      (answer) => {
        answered();
        if (rewrite === undefined) {
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(response);
          return;
        }
        const chunks: Buffer[] = [];
        answer.on("data", (chunk: Buffer) => chunks.push(chunk));
        answer.on("end", () => {
          const path = (incoming.url ?? "/").split("?")[0] ?? "/";
          const body = rewrite(path, Buffer.concat(chunks));
          const headers = { ...answer.headers, "content-length": String(body.length) };
          delete headers["transfer-encoding"];
          response.writeHead(answer.statusCode ?? 502, headers);
          response.end(body);
        });
      },
    );
    outgoing.on("error", () => {
      answered();
      response.destroy();
    });
    incoming.pipe(outgoing);
  };
  const server = createServer((incoming, response) => {
    incoming.pause();
    inFlight += 1;
    peak = Math.max(peak, inFlight);
    let done = false;
    const answered = (): void => {
      if (done) return;
      done = true;
      inFlight -= 1;
    };
    response.on("close", answered);
    const held = barrier;
    if (held !== undefined && inFlight >= held.count) {
      barrier = undefined;
      held.release();
    }
    void (async () => {
      if (held !== undefined) await held.open;
      const gate = armed;
      if (gate !== undefined && (await gate.when()) && armed === gate) {
        armed = undefined;
        gate.reached();
        await gate.opened;
      }
      forward(incoming, response, answered);
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    holdWhen(when) {
      let reached = (): void => undefined;
      let release = (): void => undefined;
      const reachedPromise = new Promise<void>((resolve) => (reached = resolve));
      const opened = new Promise<void>((resolve) => (release = resolve));
      armed = { when, reached, opened };
      return { reached: reachedPromise, release };
    },
    holdUntilInFlight(count) {
      let release = (): void => undefined;
      const open = new Promise<void>((resolve) => (release = resolve));
      barrier = { count, open, release };
    },
    takePeakInFlight() {
      const seen = peak;
      peak = inFlight;
      return seen;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
