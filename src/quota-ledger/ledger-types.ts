// The words the quota ledger speaks: priorities, a run's registration, a block asked for and granted,
// and how each step reaches PostgreSQL: one statement (a function call, run in one implicit
// transaction) on a connection of the pool, or, for a reading of several, on one connection inside a
// transaction; both count every statement sent, for the ledger's cost.
import type { QueryResult, QueryResultRow } from "pg";

/** Sends one statement and counts it; its failure comes back as the ledger's error. */
export type LedgerSend = <R extends QueryResultRow = QueryResultRow>(
  sql: string,
  values?: readonly unknown[],
) => Promise<Pick<QueryResult<R>, "rows" | "rowCount">>;

export const QUOTA_PRIORITIES = ["high", "normal", "low"] as const;
export type QuotaPriority = (typeof QUOTA_PRIORITIES)[number];

/** Lower is more important: what the ledger stores and compares. */
export const PRIORITY_RANK: Readonly<Record<QuotaPriority, number>> = { high: 0, normal: 1, low: 2 };

export function priorityName(rank: number): QuotaPriority {
  return QUOTA_PRIORITIES[rank] ?? "normal";
}

/** A run as it joins the ledger. */
export interface RunRegistration {
  runId: string;
  clientId: string;
  pipeline: string;
  /** Pipeline and window: the shards of one backfill share it, and with it one claim. */
  claimKey: string;
  priority: QuotaPriority;
  /** The requests this run leaves untouched (`limits.quota_reserve`). */
  reserve: number;
  leaseMs: number;
  /** Requests per quota day kept for this pipeline, `auto` for what its last day spent. */
  standing: number | "auto" | undefined;
}

/** What a run reports and asks for each time it comes back to the ledger. */
export interface BlockRequest {
  runId: string;
  clientId: string;
  /** Requests wanted; fewer may be granted. */
  want: number;
  /** Requests in flight this run would like to hold toward `max_in_flight`. */
  slotsWanted: number;
  /** Requests answered since the last report (they no longer count as held). */
  answered: number;
  /** The lowest remaining count the service reported since the last report. */
  observed: number | undefined;
  /** The run yields and only finishes the slices it has started: higher claims no longer stop it. */
  finishing: boolean;
  maxInFlight: number | undefined;
  /** Once the last report is this old, an exhausted day may be probed with one request. */
  recheckAfterMs: number;
  /**
   * At most this part of what the day leaves (of the room below higher claims, when there are any)
   * is granted at once; undefined: all that is asked, within the room. Runs ask for a tenth.
   */
  share?: number | undefined;
  /** The run's claim, set (or raised) before the grant is decided: one statement for both. */
  claim?: { claimKey: string; requests: number } | undefined;
}

/** How a run ends, for the ledger. */
export interface RunEnd {
  runId: string;
  clientId: string;
  answered: number;
  observed: number | undefined;
  outcome: "complete" | "stopped" | "failed" | "yielded";
  yieldedTo: string | undefined;
}
