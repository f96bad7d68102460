// `--metrics-port N` (and `--metrics-address`): serves the run's registry on /metrics while the run
// lasts, a scrape target for long backfills. The port closes when the run ends. Connections are
// capped and idle ones dropped, so scrapers (or anyone who can reach the port) cannot take the file
// descriptors the export needs for its own requests.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { Registry } from "prom-client";

/** Open connections at most; more are closed as they arrive. A scraper needs one. */
export const METRICS_MAX_CONNECTIONS = 32;
/** A connection that sends nothing for this long is closed; so is a request not whole by then. */
const METRICS_IDLE_MS = 10_000;

export interface MetricsServer {
  /** The port listened on (the one asked for, or a free one for 0). */
  port: number;
  close(): Promise<void>;
}

/**
 * @example
 * const server = await serveMetrics(metrics.registry, 9464, "0.0.0.0");
 * ... // the run
 * await server.close();
 */
export async function serveMetrics(registry: Registry, port: number, host: string): Promise<MetricsServer> {
  const server = createServer(
    { requestTimeout: METRICS_IDLE_MS, headersTimeout: METRICS_IDLE_MS, connectionsCheckingInterval: 1000 },
    (req, res) => {
      const path = new URL(req.url ?? "/", "http://metrics").pathname;
      if (req.method !== "GET" || path !== "/metrics") {
        res.writeHead(404, { "content-type": "text/plain" }).end("Only GET /metrics is served.\n");
        return;
      }
      registry.metrics().then(
        (text) => res.writeHead(200, { "content-type": registry.contentType }).end(text),
        (error: unknown) => res.writeHead(500, { "content-type": "text/plain" }).end(`${String(error)}\n`),
      );
    },
  );
  server.maxConnections = METRICS_MAX_CONNECTIONS;
  // A silent connection is closed (no 'timeout' listener: Node destroys the socket).
  server.setTimeout(METRICS_IDLE_MS);
  // A scrape in progress must not hold the run open once it ends.
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
