// The service a command talks to: the remote service named in the pipeline, or the embedded emulator
// started in-process; and the one client every request goes through.
import type { ServiceClient } from "../api/client.js";
import { createServiceClient } from "../api/client.js";
import type { ServiceConfig } from "../config/service-schema.js";
import type { Logger } from "../logger.js";

export interface Session {
  client: ServiceClient;
  /** Where the service is, for messages: the base URL, or "embedded emulator". */
  describe: string;
  close(): Promise<void>;
}

export interface OpenSessionOptions {
  log: Logger;
  quotaReserve: number;
}

export async function openSession(service: ServiceConfig, options: OpenSessionOptions): Promise<Session> {
  const timeouts = {
    connectMs: service.timeouts.connect_ms,
    headersMs: service.timeouts.request_ms,
    bodyMs: service.timeouts.request_ms,
  };
  if (service.mode === "embedded") {
    // Loaded only when asked for: runs against the real service do not pay for the emulator's modules.
    const { startEmulator } = await import("../emulator/server.js");
    const emulator = await startEmulator({
      seed: service.seed,
      ...(service.density !== undefined ? { density: service.density } : {}),
    });
    const client = createServiceClient({
      baseUrl: emulator.url,
      authUrl: emulator.url,
      clientId: emulator.clientId,
      clientSecret: emulator.clientSecret,
      logger: options.log,
      quotaReserve: options.quotaReserve,
      timeouts,
    });
    options.log.info({ url: emulator.url }, "Embedded emulator started.");
    return {
      client,
      describe: `embedded emulator (seed ${service.seed})`,
      async close() {
        await client.close();
        await emulator.close();
      },
    };
  }
  const client = createServiceClient({
    baseUrl: service.base_url,
    authUrl: service.auth_url,
    clientId: service.client_id,
    clientSecret: service.client_secret,
    logger: options.log,
    quotaReserve: options.quotaReserve,
    timeouts,
  });
  return { client, describe: service.base_url, close: () => client.close() };
}
