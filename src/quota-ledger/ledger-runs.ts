// A run's life in the ledger: joining (its row, its claim, its pipeline's standing claim), the claim
// set once the plan is known, the lease kept alive, and the end that gives back what it did not spend.
// Each is one statement: a function of the ledger's schema (ledger-sql-accounts.ts), or one UPDATE.
import type { RunEnd, RunRegistration } from "./ledger-types.js";
import { PRIORITY_RANK } from "./ledger-types.js";
import { jsonArgument } from "./ledger-statement.js";
import type { LedgerSend } from "./ledger-statement.js";

/** A standing claim as the function takes it: JSON null removes it. */
const standingArgument = (standing: RunRegistration["standing"]): string => JSON.stringify(standing ?? null);

/** Writes (or changes) a pipeline's standing claim; `undefined` removes it. */
export async function registerStanding(
  send: LedgerSend,
  clientId: string,
  pipeline: string,
  priority: RunRegistration["priority"],
  standing: RunRegistration["standing"],
): Promise<void> {
  await send(`SELECT mdq_quota_write_standing($1, $2, $3::smallint, $4::jsonb)`, [
    clientId,
    pipeline,
    PRIORITY_RANK[priority],
    standingArgument(standing),
  ]);
}

/** Joins the ledger: the run's row under a fresh lease, and its claim (new unless a shard holds it). */
export async function registerRun(send: LedgerSend, run: RunRegistration): Promise<void> {
  await send(`SELECT mdq_quota_register($1::jsonb)`, [
    jsonArgument({ ...run, rank: PRIORITY_RANK[run.priority], standing: run.standing ?? null }),
  ]);
}

/** The requests the run's plan needs: the claim, the largest any shard of it planned. */
export async function setClaim(
  send: LedgerSend,
  clientId: string,
  claimKey: string,
  requests: number,
): Promise<void> {
  await send(`SELECT mdq_quota_set_claim($1, $2, $3)`, [clientId, claimKey, requests]);
}

/** Moves the run's lease on. False when the lease had already run out (the ledger took its block back). */
export async function renewLease(send: LedgerSend, runId: string): Promise<boolean> {
  const renewed = await send(
    `UPDATE mdq_quota_runs SET lease_until = now() + make_interval(secs => lease_ms / 1000.0)
     WHERE run_id = $1 AND finished_at IS NULL AND lease_until >= now()`,
    [runId],
  );
  return (renewed.rowCount ?? 0) > 0;
}

/**
 * Ends the run: its last report, what it held back to the day's count, and, after a complete run, its
 * pipeline's standing claim released for the day and what the day cost kept (for `standing: auto`).
 */
export async function finishRun(send: LedgerSend, end: RunEnd): Promise<void> {
  await send(`SELECT mdq_quota_finish($1::jsonb)`, [jsonArgument(end)]);
}
