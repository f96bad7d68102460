// A hostile stand-in for the service written per test: a real HTTP server on a free port whose token
// endpoint and operations answer whatever the test's handler does (endless bodies, drips, silence,
// looping cursors), and a client pointed at it with a clock that never sleeps.
import { createServer } from "node:http";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createServiceClient } from "../../src/api/client.js";
import type { ServiceClient, ServiceClientOptions } from "../../src/api/client.js";
import type { RequestOf } from "../../src/api/service-operation.js";

export interface HostileRequest {
  path: string;
  body: string;
  req: IncomingMessage;
}

export type HostileHandler = (request: HostileRequest, res: ServerResponse) => unknown;

export interface HostileService {
  url: string;
  /** Requests received, by path. */
  count(path: string): number;
  client(options?: Partial<ServiceClientOptions>): ServiceClient;
  close(): Promise<void>;
}

export const VALID_TOKEN = "hostile-test-token-0123456789";

/** A first point-in-time request for jobs, valid against the wire schema. */
export const JOBS_BODY: RequestOf<"/v3/jobs/query"> = {
  application: "atr",
  app_type: ["ec2"],
  domain: ["*"],
  start_time: "2026-11-20T00:00:00Z",
  end_time: "2026-11-20T01:00:00Z",
};

/** Answers the token endpoint with a fixed token: the usual first step of every test. */
export function answerToken(res: ServerResponse): void {
  res.writeHead(200, { "content-type": "application/json" });
  res.end(JSON.stringify({ access_token: VALID_TOKEN, expires_in: 3600 }));
}

export async function startHostileService(handler: HostileHandler): Promise<HostileService> {
  const counts = new Map<string, number>();
  const clients: ServiceClient[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const path = (req.url ?? "/").split("?")[0] ?? "/";
      counts.set(path, (counts.get(path) ?? 0) + 1);
      void Promise.resolve(handler({ path, body: Buffer.concat(chunks).toString("utf8"), req }, res)).catch(
        () => res.destroy(),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    count: (path) => counts.get(path) ?? 0,
    client(options = {}) {
      let now = Date.parse("2026-11-22T00:00:00Z");
      const client = createServiceClient({
        baseUrl: url,
        authUrl: url,
        clientId: "hostile-id",
        clientSecret: "hostile-secret-value",
        clock: { now: () => now, sleep: async (ms: number) => void (now += ms) },
        random: () => 0.5,
        retry: { maxAttempts: 3 },
        ...options,
      });
      clients.push(client);
      return client;
    },
    async close() {
      for (const client of clients.splice(0)) await client.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
