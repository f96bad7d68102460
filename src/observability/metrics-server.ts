// `--metrics-port N`: serves the run's registry on /metrics while the run lasts, a scrape target for
// long backfills. The port closes when the run ends.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { Registry } from "prom-client";

export interface MetricsServer {
  /** The port listened on (the one asked for, or a free one for 0). */
  port: number;
  close(): Promise<void>;
}

/**
 * @example
 * const server = await serveMetrics(metrics.registry, 9464);
 * ... // the run
 * await server.close();
 */
export async function serveMetrics(
  registry: Registry,
  port: number,
  host = "0.0.0.0",
): Promise<MetricsServer> {
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://metrics").pathname;
    if (req.method !== "GET" || path !== "/metrics") {
      res.writeHead(404, { "content-type": "text/plain" }).end("Only GET /metrics is served.\n");
      return;
    }
    registry.metrics().then(
      (text) => res.writeHead(200, { "content-type": registry.contentType }).end(text),
      (error: unknown) => res.writeHead(500, { "content-type": "text/plain" }).end(`${String(error)}\n`),
    );
  });
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
