// The service a command talks to: the remote service named in the pipeline, or the embedded emulator
// started in-process; and the one client every request goes through.
import type { ServiceClient, ServiceClientOptions } from "../../api/client.js";
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

/** The service's endpoint and credentials: the remote service's, or an emulator's started here. */
type Endpoint = Pick<
  ServiceClientOptions,
  "baseUrl" | "authUrl" | "clientId" | "clientSecret" | "downloadHosts"
> & {
  describe: string;
  close?: () => Promise<void>;
};

async function endpointOf(service: ServiceConfig): Promise<Endpoint> {
  if (service.mode === "remote")
    return {
      baseUrl: service.base_url,
      authUrl: service.auth_url,
      clientId: service.client_id,
      clientSecret: service.client_secret,
      downloadHosts: service.download_hosts,
      // Never the userinfo a base_url may carry.
      describe: describeUrl(service.base_url),
    };
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
  const { url, clientId, clientSecret } = emulator;
  const describe = `embedded emulator (seed ${service.seed})`;
  return { baseUrl: url, authUrl: url, clientId, clientSecret, describe, close: () => emulator.close() };
}

export async function openSession(service: ServiceConfig, options: OpenSessionOptions): Promise<Session> {
  const endpoint = await endpointOf(service);
  const ledger = await options.joinLedger?.(endpoint.clientId).catch(async (error: unknown) => {
    await endpoint.close?.();
    throw error;
  });
  const { describe, close, ...where } = endpoint;
  const client = createServiceClient({
    ...where,
    logger: options.log,
    quotaReserve: options.quotaReserve,
    timeouts: { connectMs: service.timeouts.connect_ms, requestMs: service.timeouts.request_ms },
    maxResponseBytes: service.limits.max_response_bytes,
    download: { maxBytes: service.limits.max_partition_bytes, deadlineMs: service.timeouts.download_ms },
    partitions: {
      maxLineBytes: service.limits.max_line_bytes,
      maxDecompressionRatio: service.limits.max_decompression_ratio,
    },
    ...(options.observer === undefined ? {} : { observer: options.observer }),
    ...(options.concurrency === undefined ? {} : { concurrency: options.concurrency }),
    ...(ledger === undefined ? {} : { quotaGate: ledger.gate }),
  });
  if (service.mode === "embedded") options.log.info({ url: endpoint.baseUrl }, "Embedded emulator started.");
  return {
    client,
    describe,
    ledger,
    async close() {
      // A run that ended told the ledger how; one that did not ends there as failed.
      await ledger?.end("failed");
      await client.close();
      await close?.();
    },
  };
}
