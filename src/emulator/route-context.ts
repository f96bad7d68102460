// What a route handler receives and returns, and the envelope pieces every family shares: v2 `meta`,
// v3 `meta`, and the error bodies chosen where the spec does not show them (docs/emulator.md).
import { randomUUID } from "node:crypto";
import type { OperationPath } from "../api/wire/operations.js";
import type { ClientCredentials, ResolvedOptions } from "./options.js";
import type { TokenIssuer } from "./auth.js";
import type { ContextStore } from "./contexts.js";
import type { FaultInjector } from "./faults.js";
import type { Quota } from "./quota.js";
import type { BatchStore } from "./batch-store.js";
import type { Body } from "./plan.js";
import type { RequestFaults } from "./faults.js";

export interface EmulatorState {
  options: ResolvedOptions;
  issuer: TokenIssuer;
  quota: Quota;
  faults: FaultInjector;
  contexts: ContextStore;
  batches: BatchStore;
}

export interface RouteContext {
  path: OperationPath;
  body: Body;
  client: ClientCredentials;
  /** Daily requests left after this one. */
  remaining: number;
  state: EmulatorState;
  baseUrl: string;
  faults: RequestFaults;
}

export interface RouteResult {
  status: number;
  body: unknown;
  /** v3 query responses: answer 413 instead when the serialized body is over the payload limit. */
  payloadLimited?: boolean;
  /** Runs only once the response is going out (a 413 leaves the paging context where it was). */
  commit?: () => void;
}

export type Route = (ctx: RouteContext) => RouteResult;

function isoOrNull(ms: number | undefined): string | null {
  return ms === undefined || !Number.isFinite(ms) ? null : new Date(ms).toISOString();
}

export function v2Meta(
  ctx: RouteContext,
  window: { startMs?: number; endMs?: number },
  extra: Body = {},
): Body {
  return {
    api_version: "v2",
    time_range: { start: isoOrNull(window.startMs), end: isoOrNull(window.endMs) },
    rate_limit: { daily_remaining: ctx.remaining },
    request_id: randomUUID(),
    ...extra,
  };
}

export function v3Meta(ctx: RouteContext, extra: Body = {}): Body {
  return {
    trace_id: randomUUID().replaceAll("-", ""),
    rate_limit: { daily_remaining: ctx.remaining },
    ...extra,
  };
}

/** The error body of a family: v1 `status_code`/`detail`; v2 and v3 `error`/`details` (+ `message`). */
export function errorBody(
  path: string,
  status: number,
  error: string,
  details: string,
  extra: Body = {},
): Body {
  if (path.startsWith("/v1/")) return { status_code: status, detail: details, ...extra };
  return { error, details, message: details, ...extra };
}

export function contextLost(path: string, kind: "scroll" | "point in time"): RouteResult {
  const details = `the ${kind} context is unknown, expired or was released; start the query again`;
  return { status: 404, body: errorBody(path, 404, "context_not_found", details) };
}
