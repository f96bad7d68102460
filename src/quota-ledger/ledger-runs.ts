// A run's life in the ledger: joining (its row, its claim, its pipeline's standing claim), the claim
// set once the plan is known, the lease kept alive, and the end that gives back what it did not spend.
import type { PoolClient } from "pg";
import type { RunEnd, RunRegistration } from "./ledger-types.js";
import { PRIORITY_RANK } from "./ledger-types.js";
import { expireLeases, lockClient, recordReport } from "./ledger-accounts.js";

/** Writes (or changes) a pipeline's standing claim; `undefined` removes it. */
export async function registerStanding(
  tx: PoolClient,
  clientId: string,
  pipeline: string,
  priority: RunRegistration["priority"],
  standing: RunRegistration["standing"],
): Promise<void> {
  await lockClient(tx, clientId);
  if (standing === undefined) {
    await tx.query(`DELETE FROM mdq_quota_standing WHERE client_id = $1 AND pipeline = $2`, [
      clientId,
      pipeline,
    ]);
    return;
  }
  await tx.query(
    `INSERT INTO mdq_quota_standing (client_id, pipeline, priority, requests) VALUES ($1, $2, $3, $4)
     ON CONFLICT (client_id, pipeline) DO UPDATE SET priority = $3, requests = $4`,
    [clientId, pipeline, PRIORITY_RANK[priority], standing === "auto" ? null : standing],
  );
}

/** Joins the ledger: the run's row under a fresh lease, and its claim (new unless a shard holds it). */
export async function registerRun(tx: PoolClient, run: RunRegistration): Promise<void> {
  const client = await lockClient(tx, run.clientId);
  await expireLeases(tx, client);
  const rank = PRIORITY_RANK[run.priority];
  await tx.query(
    `INSERT INTO mdq_quota_runs (run_id, client_id, pipeline, claim_key, priority, reserve, day, lease_ms, lease_until)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8::integer, now() + make_interval(secs => $8::integer / 1000.0))`,
    [run.runId, run.clientId, run.pipeline, run.claimKey, rank, run.reserve, client.day, run.leaseMs],
  );
  await tx.query(
    `INSERT INTO mdq_quota_claims (client_id, claim_key, pipeline, priority) VALUES ($1, $2, $3, $4)
     ON CONFLICT (client_id, claim_key) DO NOTHING`,
    [run.clientId, run.claimKey, run.pipeline, rank],
  );
  // A claim no other live run holds starts again: the last run of this window ended.
  const shared = await tx.query<{ live: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM mdq_quota_runs WHERE client_id = $1 AND claim_key = $2
       AND finished_at IS NULL AND run_id <> $3) AS live`,
    [run.clientId, run.claimKey, run.runId],
  );
  if (shared.rows[0]?.live !== true) {
    await tx.query(
      `UPDATE mdq_quota_claims SET requests = 0, spent = 0, priority = $3 WHERE client_id = $1 AND claim_key = $2`,
      [run.clientId, run.claimKey, rank],
    );
  }
  await registerStanding(tx, run.clientId, run.pipeline, run.priority, run.standing);
}

/** The requests the run's plan needs: the claim, the largest any shard of it planned. */
export async function setClaim(
  tx: PoolClient,
  clientId: string,
  claimKey: string,
  requests: number,
): Promise<void> {
  await lockClient(tx, clientId);
  await writeClaim(tx, clientId, claimKey, requests);
}

/** The claim's UPDATE alone, for a transaction that holds the client's row already. */
export async function writeClaim(
  tx: PoolClient,
  clientId: string,
  claimKey: string,
  requests: number,
): Promise<void> {
  await tx.query(
    `UPDATE mdq_quota_claims SET requests = GREATEST(requests, $3) WHERE client_id = $1 AND claim_key = $2`,
    [clientId, claimKey, requests],
  );
}

/** Moves the run's lease on. False when the lease had already run out (the ledger took its block back). */
export async function renewLease(tx: PoolClient, runId: string): Promise<boolean> {
  const renewed = await tx.query(
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
export async function finishRun(tx: PoolClient, end: RunEnd): Promise<void> {
  const client = await lockClient(tx, end.clientId);
  await expireLeases(tx, client);
  await recordReport(tx, client, end);
  const finished = await tx.query<{ held: string; pipeline: string }>(
    `WITH ending AS (SELECT run_id, held FROM mdq_quota_runs WHERE run_id = $1 AND finished_at IS NULL FOR UPDATE)
     UPDATE mdq_quota_runs r SET finished_at = now(), outcome = $2, held = 0, slots = 0,
       yielded_to = CASE WHEN $2 = 'yielded' THEN COALESCE($3, r.yielded_to) END
     FROM ending WHERE r.run_id = ending.run_id RETURNING ending.held, r.pipeline`,
    [end.runId, end.outcome, end.yieldedTo ?? null],
  );
  const row = finished.rows[0];
  if (row === undefined) return;
  const held = Number(row.held);
  if (held > 0 && client.remaining !== null) {
    await tx.query(`UPDATE mdq_quota_clients SET remaining = remaining + $2 WHERE client_id = $1`, [
      end.clientId,
      held,
    ]);
  }
  if (end.outcome === "complete") {
    await tx.query(
      `UPDATE mdq_quota_standing SET finished_day = $3,
         last_spent = CASE WHEN spent_day = $3 THEN day_spent ELSE 0 END
       WHERE client_id = $1 AND pipeline = $2`,
      [end.clientId, row.pipeline, client.day],
    );
  }
}
