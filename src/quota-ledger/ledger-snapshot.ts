// What the ledger holds, read in one transaction: per client the quota day and its remaining count;
// the runs of that day with their claims, reservations and spending; the standing claims.
import { priorityName } from "./ledger-types.js";
import type { QuotaPriority } from "./ledger-types.js";
import type { LedgerSend } from "./ledger-types.js";

export interface LedgerRun {
  runId: string;
  pipeline: string;
  priority: QuotaPriority;
  /** The requests its plan claimed (shared by the shards of one window). */
  claim: number;
  /** Requests reserved and not yet answered. */
  held: number;
  spent: number;
  /** running, complete, stopped, failed, yielded, expired. */
  outcome: string;
  yieldedTo: string | undefined;
  startedAt: string;
  finishedAt: string | undefined;
}

export interface LedgerStanding {
  pipeline: string;
  priority: QuotaPriority;
  /** Requests per quota day; undefined for `auto`. */
  requests: number | undefined;
  /** What it keeps from lower priorities now: 0 once its run finished for the day. */
  protecting: number;
  spentToday: number;
  lastSpent: number | undefined;
  finishedToday: boolean;
}

export interface LedgerClient {
  clientId: string;
  day: number;
  dayStartedAt: string;
  /** The ledger's count: the service's last report, less what was reserved since. */
  remaining: number | undefined;
  reported: number | undefined;
  reportedAt: string | undefined;
  runs: LedgerRun[];
  standing: LedgerStanding[];
}

export interface LedgerSnapshot {
  clients: LedgerClient[];
}

const num = (value: string | number | null): number | undefined =>
  value === null ? undefined : Number(value);
const time = (value: Date | null): string | undefined => (value === null ? undefined : value.toISOString());

interface ClientRow {
  client_id: string;
  day: number;
  day_started_at: Date;
  remaining: string | null;
  reported: string | null;
  reported_at: Date | null;
}

async function readClient(send: LedgerSend, row: ClientRow): Promise<LedgerClient> {
  const runs = await send<{
    run_id: string;
    pipeline: string;
    priority: number;
    requests: string | null;
    held: string;
    spent: string;
    outcome: string;
    yielded_to: string | null;
    started_at: Date;
    finished_at: Date | null;
  }>(
    `SELECT r.run_id, r.pipeline, r.priority, c.requests, r.held, r.spent, r.outcome, r.yielded_to,
            r.started_at, r.finished_at
     FROM mdq_quota_runs r LEFT JOIN mdq_quota_claims c
       ON c.client_id = r.client_id AND c.claim_key = r.claim_key
     WHERE r.client_id = $1 AND (r.finished_at IS NULL OR r.day = $2)
     ORDER BY r.priority, r.started_at`,
    [row.client_id, row.day],
  );
  const standing = await send<{
    pipeline: string;
    priority: number;
    requests: string | null;
    spent_day: number;
    day_spent: string;
    last_spent: string | null;
    finished_day: number;
  }>(`SELECT * FROM mdq_quota_standing WHERE client_id = $1 ORDER BY priority, pipeline`, [row.client_id]);
  return {
    clientId: row.client_id,
    day: row.day,
    dayStartedAt: row.day_started_at.toISOString(),
    remaining: num(row.remaining),
    reported: num(row.reported),
    reportedAt: time(row.reported_at),
    runs: runs.rows.map((run) => ({
      runId: run.run_id,
      pipeline: run.pipeline,
      priority: priorityName(run.priority),
      claim: num(run.requests) ?? 0,
      held: Number(run.held),
      spent: Number(run.spent),
      outcome: run.outcome,
      yieldedTo: run.yielded_to ?? undefined,
      startedAt: run.started_at.toISOString(),
      finishedAt: time(run.finished_at),
    })),
    standing: standing.rows.map((claim) => {
      const spentToday = claim.spent_day === row.day ? Number(claim.day_spent) : 0;
      const finishedToday = claim.finished_day === row.day;
      const amount = num(claim.requests) ?? num(claim.last_spent) ?? 0;
      return {
        pipeline: claim.pipeline,
        priority: priorityName(claim.priority),
        requests: num(claim.requests),
        protecting: finishedToday ? 0 : Math.max(0, amount - spentToday),
        spentToday,
        lastSpent: num(claim.last_spent),
        finishedToday,
      };
    }),
  };
}

/** The ledger's state for one client, or for all; leases that ran out are ended first. */
export async function readSnapshot(send: LedgerSend, clientId: string | undefined): Promise<LedgerSnapshot> {
  const ids = await send<{ client_id: string }>(
    `SELECT client_id FROM mdq_quota_clients WHERE $1::text IS NULL OR client_id = $1 ORDER BY client_id`,
    [clientId ?? null],
  );
  const clients: LedgerClient[] = [];
  for (const { client_id } of ids.rows) {
    // The client's row held, and its leases that ran out ended, before it is read.
    await send(`SELECT mdq_quota_expire((mdq_quota_lock_client($1)).client_id)`, [client_id]);
    const row = await send<ClientRow>(`SELECT * FROM mdq_quota_clients WHERE client_id = $1`, [client_id]);
    const found = row.rows[0];
    if (found !== undefined) clients.push(await readClient(send, found));
  }
  return { clients };
}
