// The embedded Monitoring Data Query Service: one node:http server for the token endpoint, every v1/v2/v3
// operation and the partition downloads, with quota, permissions, payload limit and seeded faults.
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { isOperationPath } from "../api/wire/operations.js";
import type { OperationPath } from "../api/wire/operations.js";
import type { GeneratedKind } from "./generated-kind.js";
import { resolveOptions } from "./options.js";
import type { EmulatorOptions, FaultOptions, ResolvedOptions } from "./options.js";
import { createTokenIssuer } from "./auth.js";
import { createQuota } from "./quota.js";
import { createFaultInjector } from "./faults.js";
import type { FaultCounts } from "./faults.js";
import { createContextStore } from "./contexts.js";
import { createBatchStore } from "./batch-store.js";
import { sendPartition } from "./download.js";
import { readBody, sendJson, sendText } from "./http-io.js";
import type { EmulatorState } from "./route-context.js";
import { createOperationHandler } from "./operation-handler.js";
import { KIND_DATA } from "./kind-data.js";
import { planQuery } from "./plan.js";
import type { Body } from "./plan.js";
import { countPlan, pages } from "./scan.js";
import type { EmulatedHit } from "./scan.js";
import { CONTROL_PREFIX, createControl, handleControl } from "./control.js";
import type { EmulatorControl } from "./control.js";

export type { EmulatorOptions, FaultOptions, PartitionFormat } from "./options.js";
export type { EmulatedHit } from "./scan.js";

export interface RunningEmulator extends EmulatorControl {
  /** Base URL of the service and of the token issuer: `http://127.0.0.1:PORT`. */
  url: string;
  clientId: string;
  clientSecret: string;
  options: ResolvedOptions;
  close(): Promise<void>;
  /** Requests received for a path (an operation, `/oauth2/token`, `/downloads`), or in all. */
  requestCount(path?: string): number;
  requestCounts(): Record<string, number>;
  /** Every token issued so far is refused (401) from now on. */
  revokeTokens(): void;
  setFaults(faults: FaultOptions): void;
  /** Requests that drew each fault so far (a drawn fault may have no effect, e.g. context loss on an initial request). */
  faultCounts(): FaultCounts;
  /**
   * The hits of an initial request body, in the order the service pages them (page size from the
   * body), computed without HTTP by the same plan and paging code the endpoints use, so tests compare
   * exported records with exactly what the service would page out. `target` is a kind (its
   * query/scroll operation) or an operation path; this service's field changes, late and lost records
   * and indexing horizon count.
   */
  expectedHits(target: OperationPath | GeneratedKind, body: Body): AsyncIterable<EmulatedHit>;
  /** Number of hits of an initial request body (what `data.total` reports). */
  expectedCount(target: OperationPath | GeneratedKind, body: Body): number;
}

/**
 * Starts the emulator (127.0.0.1, a free port unless told otherwise).
 * @example
 * const emulator = await startEmulator({ seed: 7, density: 100 });
 * // token: POST `${emulator.url}/oauth2/token`; then POST `${emulator.url}/v3/jobs/query`
 * await emulator.close();
 */
export async function startEmulator(input: EmulatorOptions = {}): Promise<RunningEmulator> {
  const options = resolveOptions(input);
  const state: EmulatorState = {
    options,
    issuer: createTokenIssuer(options.clients, options.tokenTtlSeconds, options.clock),
    quota: createQuota(options.quota, options.clock, options.quotaDayMs),
    faults: createFaultInjector(options.seed, options.faults),
    contexts: createContextStore(options.contextIdleSeconds, options.clock),
    batches: createBatchStore(options),
  };
  const control = createControl(options);
  const counts = new Map<string, number>();
  let baseUrl = "";

  const { issuer, faults } = state;
  const handleOperation = createOperationHandler(state, () => baseUrl);
  const planOf = (target: OperationPath | GeneratedKind, body: Body) =>
    planQuery(
      target.startsWith("/") ? (target as OperationPath) : KIND_DATA[target as GeneratedKind].query,
      body,
      options,
    );

  async function handleDownload(url: URL, res: ServerResponse): Promise<void> {
    const partition = state.batches.resolveDownload(url);
    if (typeof partition === "string") {
      const message =
        partition === "expired" ? "Request has expired" : "The request signature does not match";
      const code = partition === "expired" ? "AccessDenied" : "SignatureDoesNotMatch";
      const xml = `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${message}</Message></Error>`;
      return sendText(res, 403, xml, { "content-type": "application/xml" });
    }
    await sendPartition(res, partition, options.partitionFormat);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://emulator");
    const key = url.pathname.startsWith("/downloads/") ? "/downloads" : url.pathname;
    counts.set(key, (counts.get(key) ?? 0) + 1);
    if (req.method === "GET" && key === "/downloads") return handleDownload(url, res);
    if (req.method !== "POST")
      return sendJson(res, 405, { error: "method_not_allowed", details: "use POST" });
    if (url.pathname === "/oauth2/token") {
      const grant = await issuer.grant(new URLSearchParams((await readBody(req)) ?? ""));
      return sendJson(res, grant.status, grant.body, { "cache-control": "no-store" });
    }
    if (options.control && url.pathname.startsWith(CONTROL_PREFIX))
      return handleControl(control, url.pathname, req, res);
    if (!isOperationPath(url.pathname))
      return sendJson(res, 404, { error: "not_found", details: `no operation ${url.pathname}` });
    return handleOperation(url.pathname, req, res);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      // The reference ties the bare answer to the operator's log; internal text never goes out.
      const reference = randomUUID();
      options.onInternalError(error, reference);
      if (res.headersSent) return void res.destroy();
      sendJson(res, 500, {
        error: "internal_error",
        details: `internal error (reference ${reference})`,
      });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  baseUrl = `http://${options.host.includes(":") ? `[${options.host}]` : options.host}:${address.port}`;
  const main = options.clients[0];
  return {
    ...control,
    url: baseUrl,
    clientId: main?.clientId ?? "",
    clientSecret: main?.clientSecret ?? "",
    options,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
    requestCount: (path) =>
      path === undefined ? [...counts.values()].reduce((a, b) => a + b, 0) : (counts.get(path) ?? 0),
    requestCounts: () => Object.fromEntries(counts),
    revokeTokens: () => issuer.revokeAll(),
    setFaults: (next) => faults.set(next),
    faultCounts: () => faults.counts(),
    async *expectedHits(target, body) {
      const plan = planOf(target, body);
      for (const hits of pages(plan, Math.max(1, Math.min(plan.size, 10_000)))) yield* hits;
    },
    expectedCount: (target, body) => countPlan(planOf(target, body)).total,
  };
}
