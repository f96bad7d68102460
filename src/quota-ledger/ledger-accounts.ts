// The bookkeeping every ledger statement starts with: the client's row held for the transaction,
// leases that ran out given back, and a run's report (requests answered, the count the service saw)
// written to the run, its claim, its pipeline's standing claim and the day's remaining count.
import type { PoolClient } from "pg";

export interface ClientRow {
  client_id: string;
  day: number;
  /** bigint columns come back as text. */
  remaining: string | null;
  day_first_remaining: string | null;
  /** The lowest count the service reported this day, as reported. */
  day_lowest_reported: string | null;
}

/** The client's row, created on first use and locked until the transaction ends. */
export async function lockClient(tx: PoolClient, clientId: string): Promise<ClientRow> {
  await tx.query(`INSERT INTO mdq_quota_clients (client_id) VALUES ($1) ON CONFLICT DO NOTHING`, [clientId]);
  const found = await tx.query<ClientRow>(
    `SELECT client_id, day, remaining, day_first_remaining, day_lowest_reported FROM mdq_quota_clients
     WHERE client_id = $1 FOR UPDATE`,
    [clientId],
  );
  const row = found.rows[0];
  if (row === undefined) throw new Error(`the quota ledger lost client ${clientId}`);
  return row;
}

/**
 * Ends the runs whose lease ran out (a process killed, or cut off from the ledger) and gives back the
 * requests they held. What such a run spent since its last report is not known; the next count the
 * service reports corrects the difference (at most one block).
 */
export async function expireLeases(tx: PoolClient, client: ClientRow): Promise<void> {
  const expired = await tx.query<{ held: string | null }>(
    `WITH gone AS (
       SELECT run_id, held FROM mdq_quota_runs
       WHERE client_id = $1 AND finished_at IS NULL AND lease_until < now() FOR UPDATE)
     UPDATE mdq_quota_runs r SET finished_at = now(), outcome = 'expired', held = 0, slots = 0
     FROM gone WHERE r.run_id = gone.run_id
     RETURNING gone.held`,
    [client.client_id],
  );
  const held = expired.rows.reduce((sum, row) => sum + Number(row.held ?? 0), 0);
  if (held > 0 && client.remaining !== null) {
    client.remaining = String(Number(client.remaining) + held);
    await tx.query(`UPDATE mdq_quota_clients SET remaining = $2 WHERE client_id = $1`, [
      client.client_id,
      client.remaining,
    ]);
  }
}

/** Requests held by the client's live runs: granted, not yet answered. */
async function heldByLiveRuns(tx: PoolClient, clientId: string): Promise<number> {
  const found = await tx.query<{ held: string | null }>(
    `SELECT sum(held) AS held FROM mdq_quota_runs WHERE client_id = $1 AND finished_at IS NULL`,
    [clientId],
  );
  return Number(found.rows[0]?.held ?? 0);
}

/**
 * The gap above the day's lowest reported count that means a new quota day. Reports arrive late and
 * out of order, by at most what the fleet holds; a renewed quota jumps by far more. (The ledger's own
 * count is not the base: it is kept on the low side, by up to a block, and would make a late report
 * look like a jump.)
 */
function newDayMargin(client: ClientRow, held: number): number {
  return held + Math.max(5, Math.ceil(Number(client.day_first_remaining ?? 0) / 20));
}

export interface Report {
  runId: string;
  clientId: string;
  answered: number;
  observed: number | undefined;
}

/** Writes a run's report; updates `client` (day, remaining) in place. */
export async function recordReport(tx: PoolClient, client: ClientRow, report: Report): Promise<void> {
  // A run cut off past its lease and back again takes up its row; what it held was given back.
  const run = await tx.query<{ pipeline: string; claim_key: string }>(
    `UPDATE mdq_quota_runs SET spent = spent + $2, held = GREATEST(held - $2, 0),
       finished_at = NULL, outcome = CASE WHEN outcome = 'expired' THEN 'running' ELSE outcome END
     WHERE run_id = $1 AND (finished_at IS NULL OR outcome = 'expired')
     RETURNING pipeline, claim_key`,
    [report.runId, report.answered],
  );
  const row = run.rows[0];
  if (row !== undefined && report.answered > 0) {
    await tx.query(`UPDATE mdq_quota_claims SET spent = spent + $3 WHERE client_id = $1 AND claim_key = $2`, [
      report.clientId,
      row.claim_key,
      report.answered,
    ]);
    await tx.query(
      `UPDATE mdq_quota_standing SET
         day_spent = CASE WHEN spent_day = $3 THEN day_spent + $4 ELSE $4 END, spent_day = $3
       WHERE client_id = $1 AND pipeline = $2`,
      [report.clientId, row.pipeline, client.day, report.answered],
    );
  }
  if (report.observed === undefined) return;
  const held = await heldByLiveRuns(tx, client.client_id);
  const seen = report.observed - held;
  const current = client.remaining === null ? undefined : Number(client.remaining);
  const lowest = client.day_lowest_reported === null ? undefined : Number(client.day_lowest_reported);
  if (lowest !== undefined && report.observed > lowest + newDayMargin(client, held)) {
    client.day += 1;
    client.day_first_remaining = String(report.observed);
    client.day_lowest_reported = String(report.observed);
    client.remaining = String(Math.max(0, seen));
    await tx.query(
      `UPDATE mdq_quota_clients SET day = $2, day_started_at = now(), day_first_remaining = $3,
         day_lowest_reported = $3, remaining = $4, reported = $3, reported_at = now()
       WHERE client_id = $1`,
      [client.client_id, client.day, report.observed, client.remaining],
    );
    return;
  }
  const remaining = Math.max(0, current === undefined ? seen : Math.min(current, seen));
  client.remaining = String(remaining);
  client.day_first_remaining ??= String(report.observed);
  client.day_lowest_reported = String(Math.min(lowest ?? report.observed, report.observed));
  await tx.query(
    `UPDATE mdq_quota_clients SET remaining = $2, reported = $3, reported_at = now(),
       day_first_remaining = COALESCE(day_first_remaining, $3),
       day_lowest_reported = LEAST(COALESCE(day_lowest_reported, $3), $3) WHERE client_id = $1`,
    [client.client_id, remaining, report.observed],
  );
}
