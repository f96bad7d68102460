// The service a command talks to: the remote service named in the pipeline, or the embedded emulator
// started in-process; and the one client every request goes through.
import type { ServiceClient } from "../../api/client.js";
import { createServiceClient } from "../../api/client.js";
import { describeUrl } from "../../api/redact.js";
import type { ServiceConfig } from "../../config/service-schema.js";
import type { Logger } from "../../logger.js";
import type { RunObserver } from "../../core/run-observer.js";
import type { RunLedger } from "./run-ledger.js";

export interface Session {
  client: ServiceClient;
  /** Where the service is, for messages: the base URL, or "embedded emulator". */
  describe: string;
  /** The run's place in the quota ledger, when it shares the quota with a fleet. */
  ledger?: RunLedger | undefined;
  close(): Promise<void>;
}

interface OpenSessionOptions {
  log: Logger;
  quotaReserve: number;
  /** Most requests waiting for the service's answer at once (`limits.concurrency`); default 4. */
  concurrency?: number;
  observer?: RunObserver;
  /** Joins the quota ledger for the client the session uses, before its first request. */
  joinLedger?: (clientId: string) => Promise<RunLedger | undefined>;
}

export async function openSession(service: ServiceConfig, options: OpenSessionOptions): Promise<Session> {
  const bounds = {
    timeouts: { connectMs: service.timeouts.connect_ms, requestMs: service.timeouts.request_ms },
    maxResponseBytes: service.limits.max_response_bytes,
    download: { maxBytes: service.limits.max_partition_bytes, deadlineMs: service.timeouts.download_ms },
    partitions: {
      maxLineBytes: service.limits.max_line_bytes,
      maxDecompressionRatio: service.limits.max_decompression_ratio,
    },
    ...(options.observer === undefined ? {} : { observer: options.observer }),
    ...(options.concurrency === undefined ? {} : { concurrency: options.concurrency }),
  };
  if (service.mode === "embedded") {
    // Loaded only when asked for: runs against the real service do not pay for the emulator's modules.
    const { startEmulator } = await import("../../emulator/server.js");
    const { parseAwkward } = await import("../../emulator/awkward-data.js");
    // The schema checked the part names; parseAwkward turns them into the emulator's profile.
    const awkward =
      service.awkward === undefined
        ? undefined
        : parseAwkward(service.awkward === true ? "all" : service.awkward.join(","));
    if (typeof awkward === "string") throw new Error(`service.awkward: ${awkward}`);
    const emulator = await startEmulator({
      seed: service.seed,
      ...(service.density !== undefined ? { density: service.density } : {}),
      ...(awkward !== undefined ? { awkward } : {}),
    });
    const ledger = await options.joinLedger?.(emulator.clientId).catch(async (error: unknown) => {
      await emulator.close();
      throw error;
    });
    const client = createServiceClient({
      baseUrl: emulator.url,
      authUrl: emulator.url,
      clientId: emulator.clientId,
      clientSecret: emulator.clientSecret,
      logger: options.log,
      quotaReserve: options.quotaReserve,
      ...bounds,
      ...(ledger === undefined ? {} : { quotaGate: ledger.gate }),
    });
    options.log.info({ url: emulator.url }, "Embedded emulator started.");
    return {
      client,
      describe: `embedded emulator (seed ${service.seed})`,
      ledger,
      async close() {
        await ledger?.end("failed");
        await client.close();
        await emulator.close();
      },
    };
  }
  const ledger = await options.joinLedger?.(service.client_id);
  const client = createServiceClient({
    baseUrl: service.base_url,
    authUrl: service.auth_url,
    clientId: service.client_id,
    clientSecret: service.client_secret,
    logger: options.log,
    quotaReserve: options.quotaReserve,
    ...bounds,
    downloadHosts: service.download_hosts,
    ...(ledger === undefined ? {} : { quotaGate: ledger.gate }),
  });
  // Never the userinfo a base_url may carry.
  return {
    client,
    describe: describeUrl(service.base_url),
    ledger,
    async close() {
      // A run that ended told the ledger how; one that did not ends there as failed.
      await ledger?.end("failed");
      await client.close();
    },
  };
}
