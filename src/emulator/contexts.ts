// Scroll and point-in-time contexts: a plan and a position, forgotten when idle too long (injected clock).
import { randomBytes } from "node:crypto";
import type { Clock } from "./options.js";
import type { QueryPlan } from "./plan.js";
import type { PlanCount } from "./scan.js";

export interface PagingContext {
  id: string;
  plan: QueryPlan;
  count: PlanCount;
  /** Position of the last record served; -1 before the first page. */
  position: number;
  lastUsedMs: number;
}

export interface ContextStore {
  open(plan: QueryPlan, count: PlanCount, prefix: string): PagingContext;
  /** The live context, touched; undefined when unknown, released or idle past the limit. */
  get(id: string): PagingContext | undefined;
  release(id: string): void;
}

export function createContextStore(idleSeconds: number, clock: Clock): ContextStore {
  const contexts = new Map<string, PagingContext>();
  const sweep = (now: number) => {
    for (const [id, context] of contexts)
      if (now - context.lastUsedMs > idleSeconds * 1000) contexts.delete(id);
  };
  return {
    open(plan, count, prefix) {
      const now = clock();
      sweep(now);
      const id = `${prefix}${randomBytes(18).toString("base64url")}`;
      const context = { id, plan, count, position: -1, lastUsedMs: now };
      contexts.set(id, context);
      return context;
    },
    get(id) {
      const now = clock();
      sweep(now);
      const context = contexts.get(id);
      if (context) context.lastUsedMs = now;
      return context;
    },
    release: (id) => void contexts.delete(id),
  };
}
