// The ledger's one busy statement: a run reports what it spent and saw, and asks for its next block.
// Everything happens in one transaction holding the client's row (SELECT … FOR UPDATE), so two runs
// racing for the last requests are served one after the other and never both get them.
import type { PoolClient } from "pg";
import type { BlockRequest, Grant } from "./ledger-types.js";
import { expireLeases, lockClient, recordReport } from "./ledger-accounts.js";
import type { ClientRow } from "./ledger-accounts.js";
import { blockCap } from "./ledger-block-size.js";
import { writeClaim } from "./ledger-runs.js";

interface RunRow {
  pipeline: string;
  claim_key: string;
  priority: number;
  reserve: string;
}

interface Protected {
  /** Requests the claims and standing claims of higher-priority pipelines keep. */
  requests: number;
  /** Of which the claims of runs under way. */
  running: number;
  /** The first of those pipelines, the one a yielding run names. */
  pipeline: string | undefined;
}

/** What the claims and standing claims of higher-priority pipelines keep from this run, and whose. */
async function protectedFor(tx: PoolClient, client: ClientRow, run: RunRow): Promise<Protected> {
  const rows = await tx.query<{ pipeline: string; requests: string; running: string | null }>(
    `WITH claims AS (
       SELECT c.pipeline, sum(GREATEST(c.requests - c.spent, 0)) AS requests
       FROM mdq_quota_claims c
       WHERE c.client_id = $1 AND c.priority < $2 AND c.pipeline <> $3
         AND EXISTS (SELECT 1 FROM mdq_quota_runs r WHERE r.client_id = c.client_id
                     AND r.claim_key = c.claim_key AND r.finished_at IS NULL)
       GROUP BY c.pipeline),
     standing AS (
       SELECT s.pipeline,
         CASE WHEN s.finished_day = $4 THEN 0
              ELSE GREATEST(COALESCE(s.requests, s.last_spent, 0)
                            - CASE WHEN s.spent_day = $4 THEN s.day_spent ELSE 0 END, 0) END AS requests
       FROM mdq_quota_standing s
       WHERE s.client_id = $1 AND s.priority < $2 AND s.pipeline <> $3)
     SELECT COALESCE(c.pipeline, s.pipeline) AS pipeline,
            GREATEST(COALESCE(c.requests, 0), COALESCE(s.requests, 0)) AS requests,
            c.requests AS running
     FROM claims c FULL OUTER JOIN standing s ON s.pipeline = c.pipeline
     ORDER BY 2 DESC`,
    [client.client_id, run.priority, run.pipeline, client.day],
  );
  let requests = 0;
  let running = 0;
  let pipeline: string | undefined;
  for (const row of rows.rows) {
    const kept = Number(row.requests);
    if (kept <= 0) continue;
    requests += kept;
    running += Number(row.running ?? 0);
    pipeline ??= row.pipeline;
  }
  return { requests, running, pipeline };
}

/** How many requests this run may have in flight under the fleet's `max_in_flight`. */
async function slotsFor(tx: PoolClient, request: BlockRequest): Promise<number | undefined> {
  if (request.maxInFlight === undefined) return undefined;
  const others = await tx.query<{ slots: string | null }>(
    `SELECT sum(slots) AS slots FROM mdq_quota_runs
     WHERE client_id = $1 AND finished_at IS NULL AND run_id <> $2`,
    [request.clientId, request.runId],
  );
  const taken = Number(others.rows[0]?.slots ?? 0);
  return Math.max(0, Math.min(request.slotsWanted, request.maxInFlight - taken));
}

/** Decides the grant from the day's remaining count, the run's reserve and the higher claims. */
function decide(
  request: BlockRequest,
  client: ClientRow,
  run: RunRow,
  kept: Protected,
  recheckDue: boolean,
  ownClaimLeft: number,
): Pick<Grant, "granted" | "yieldTo" | "exhausted"> & { probe?: boolean } {
  // Nobody has heard from the service yet: one request, whose answer tells the fleet the count.
  if (client.remaining === null) return { granted: 1, yieldTo: undefined, exhausted: false };
  const free = Number(client.remaining) - Number(run.reserve);
  const room = free - kept.requests;
  // A count this run cannot use may be yesterday's: one request may find the service's new day.
  // (The probe's time is kept, so the fleet sends one probe per `recheck_after_ms`, not one per run.)
  if (room < 1 && recheckDue) return { granted: 1, yieldTo: undefined, exhausted: false, probe: true };
  if (room >= 1) {
    // With a share asked for, below higher claims a block is that part of the room they leave, so a
    // claim arriving later finds most of it still there; otherwise of the day's count.
    const cap = request.share === undefined ? room : blockCap(kept.requests > 0 ? room : free, request.share);
    const block = Math.min(request.want, room, cap);
    // Start no more slices, and finish those begun within the room left, when the room is about to
    // run out (less than two of the blocks the day allows), or when a higher-priority run under way
    // leaves too little to see this one through (a standing claim alone leaves the room to use).
    const dayBlock =
      request.share === undefined ? request.want : Math.min(request.want, blockCap(free, request.share));
    const short = room < 2 * dayBlock || (kept.running > 0 && room < ownClaimLeft);
    const yieldTo = kept.requests > 0 && short ? kept.pipeline : undefined;
    // Not on a stale count, though: one request first, whose answer may show a new quota day.
    if (yieldTo !== undefined && recheckDue && !request.finishing)
      return { granted: 1, yieldTo: undefined, exhausted: false, probe: true };
    return { granted: block, yieldTo, exhausted: false };
  }
  if (free >= 1) {
    // Higher claims take what is left: only a run finishing its slices gets more, from the day's rest.
    const cap = request.share === undefined ? free : blockCap(free, request.share);
    const granted = request.finishing ? Math.min(request.want, free, cap) : 0;
    return { granted, yieldTo: kept.pipeline, exhausted: false };
  }
  return { granted: 0, yieldTo: undefined, exhausted: true };
}

/**
 * Reports the run's spending and the count it saw, returns what leases that ran out left, and grants
 * the next block (possibly empty, with why).
 */
export async function takeBlock(tx: PoolClient, request: BlockRequest): Promise<Grant> {
  const client = await lockClient(tx, request.clientId);
  await expireLeases(tx, client);
  await recordReport(tx, client, request);
  if (request.claim !== undefined)
    await writeClaim(tx, request.clientId, request.claim.claimKey, request.claim.requests);
  const found = await tx.query<RunRow>(
    `SELECT pipeline, claim_key, priority, reserve FROM mdq_quota_runs WHERE run_id = $1`,
    [request.runId],
  );
  const run = found.rows[0];
  if (run === undefined) throw new Error(`run ${request.runId} is not registered in the quota ledger`);
  const kept = await protectedFor(tx, client, run);
  const recheck = await tx.query<{ due: boolean }>(
    `SELECT reported_at IS NULL OR reported_at < now() - make_interval(secs => $1::double precision / 1000) AS due
     FROM mdq_quota_clients WHERE client_id = $2`,
    [request.recheckAfterMs, request.clientId],
  );
  const own = await tx.query<{ left: string }>(
    `SELECT GREATEST(requests - spent, 0) AS left FROM mdq_quota_claims WHERE client_id = $1 AND claim_key = $2`,
    [request.clientId, run.claim_key],
  );
  const ownLeft = Number(own.rows[0]?.left ?? 0);
  const decision = decide(request, client, run, kept, recheck.rows[0]?.due === true, ownLeft);
  const slots = await slotsFor(tx, request);
  const remaining = client.remaining === null ? null : Number(client.remaining) - decision.granted;
  await tx.query(
    `UPDATE mdq_quota_clients SET remaining = $2,
       reported_at = CASE WHEN $3 THEN now() ELSE reported_at END
     WHERE client_id = $1`,
    [request.clientId, remaining, decision.probe === true],
  );
  await tx.query(
    `UPDATE mdq_quota_runs SET held = held + $2, slots = COALESCE($3, slots), day = $4,
       yielded_to = COALESCE($5, yielded_to), lease_until = now() + make_interval(secs => lease_ms / 1000.0)
     WHERE run_id = $1`,
    [request.runId, decision.granted, slots ?? null, client.day, decision.yieldTo ?? null],
  );
  return {
    granted: decision.granted,
    yieldTo: decision.yieldTo,
    exhausted: decision.exhausted,
    probe: decision.probe === true,
    slots,
    remaining: remaining === null ? undefined : remaining,
    day: client.day,
  };
}
