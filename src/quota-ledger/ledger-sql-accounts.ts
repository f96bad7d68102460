// The ledger's bookkeeping as PL/pgSQL functions (schema version 2), so that each step of a run costs
// one statement: the client's row held for the transaction the call runs in, leases that ran out
// given back, a run's report written, a run joining, its claim and standing claim, and its end.
// Every step locks the client's row first (SELECT … FOR UPDATE): racing processes queue on it.

export const ACCOUNTS_FUNCTIONS = `
CREATE OR REPLACE FUNCTION mdq_quota_lock_client(p_client text) RETURNS mdq_quota_clients
LANGUAGE plpgsql AS $fn$
DECLARE v_client mdq_quota_clients;
BEGIN
  INSERT INTO mdq_quota_clients (client_id) VALUES (p_client) ON CONFLICT DO NOTHING;
  SELECT * INTO v_client FROM mdq_quota_clients WHERE client_id = p_client FOR UPDATE;
  RETURN v_client;
END $fn$;

-- Ends the runs whose lease ran out (a process killed, or cut off) and gives back what they held. What
-- such a run spent since its last report is not known; the service's next count corrects it.
CREATE OR REPLACE FUNCTION mdq_quota_expire(p_client text) RETURNS void
LANGUAGE plpgsql AS $fn$
DECLARE v_gave bigint;
BEGIN
  WITH gone AS (
    SELECT run_id, held FROM mdq_quota_runs
    WHERE client_id = p_client AND finished_at IS NULL AND lease_until < now() FOR UPDATE),
  ended AS (
    UPDATE mdq_quota_runs r SET finished_at = now(), outcome = 'expired', held = 0, slots = 0
    FROM gone WHERE r.run_id = gone.run_id RETURNING gone.held)
  SELECT COALESCE(sum(held), 0) INTO v_gave FROM ended;
  IF v_gave > 0 THEN
    UPDATE mdq_quota_clients SET remaining = remaining + v_gave
    WHERE client_id = p_client AND remaining IS NOT NULL;
  END IF;
END $fn$;

-- A run's report: requests answered (no longer held) and the lowest count the service reported. A
-- count above the day's lowest by more than the fleet holds (plus a twentieth of the day's first
-- count) is a new quota day: reports arrive late by at most what is held, a renewed quota jumps.
CREATE OR REPLACE FUNCTION mdq_quota_record(p_client text, p_run text, p_answered bigint, p_observed bigint)
RETURNS void LANGUAGE plpgsql AS $fn$
DECLARE
  v_client mdq_quota_clients;
  v_run record;
  v_held bigint;
  v_seen bigint;
BEGIN
  SELECT * INTO v_client FROM mdq_quota_clients WHERE client_id = p_client;
  -- A run cut off past its lease and back again takes up its row; what it held was given back.
  UPDATE mdq_quota_runs SET spent = spent + p_answered, held = GREATEST(held - p_answered, 0),
    finished_at = NULL, outcome = CASE WHEN outcome = 'expired' THEN 'running' ELSE outcome END
  WHERE run_id = p_run AND (finished_at IS NULL OR outcome = 'expired')
  RETURNING pipeline, claim_key INTO v_run;
  IF FOUND AND p_answered > 0 THEN
    UPDATE mdq_quota_claims SET spent = spent + p_answered
    WHERE client_id = p_client AND claim_key = v_run.claim_key;
    UPDATE mdq_quota_standing SET
      day_spent = CASE WHEN spent_day = v_client.day THEN day_spent + p_answered ELSE p_answered END,
      spent_day = v_client.day
    WHERE client_id = p_client AND pipeline = v_run.pipeline;
  END IF;
  IF p_observed IS NULL THEN RETURN; END IF;
  SELECT COALESCE(sum(held), 0) INTO v_held FROM mdq_quota_runs
  WHERE client_id = p_client AND finished_at IS NULL;
  v_seen := p_observed - v_held;
  IF v_client.day_lowest_reported IS NOT NULL AND p_observed > v_client.day_lowest_reported + v_held
       + GREATEST(5, ceil(COALESCE(v_client.day_first_remaining, 0) / 20.0)::bigint) THEN
    UPDATE mdq_quota_clients SET day = day + 1, day_started_at = now(), day_first_remaining = p_observed,
      day_lowest_reported = p_observed, remaining = GREATEST(0, v_seen), reported = p_observed,
      reported_at = now()
    WHERE client_id = p_client;
    RETURN;
  END IF;
  UPDATE mdq_quota_clients SET
    remaining = GREATEST(0, CASE WHEN remaining IS NULL THEN v_seen ELSE LEAST(remaining, v_seen) END),
    reported = p_observed, reported_at = now(),
    day_first_remaining = COALESCE(day_first_remaining, p_observed),
    day_lowest_reported = LEAST(COALESCE(day_lowest_reported, p_observed), p_observed)
  WHERE client_id = p_client;
END $fn$;

-- A pipeline's standing claim: a number, 'auto' (what its last day spent), or JSON null to remove it.
CREATE OR REPLACE FUNCTION mdq_quota_write_standing(p_client text, p_pipeline text, p_rank smallint, p_standing jsonb)
RETURNS void LANGUAGE plpgsql AS $fn$
BEGIN
  PERFORM mdq_quota_lock_client(p_client);
  IF p_standing IS NULL OR jsonb_typeof(p_standing) = 'null' THEN
    DELETE FROM mdq_quota_standing WHERE client_id = p_client AND pipeline = p_pipeline;
    RETURN;
  END IF;
  INSERT INTO mdq_quota_standing (client_id, pipeline, priority, requests)
  VALUES (p_client, p_pipeline, p_rank,
          CASE WHEN jsonb_typeof(p_standing) = 'number' THEN (p_standing #>> '{}')::bigint END)
  ON CONFLICT (client_id, pipeline) DO UPDATE SET priority = EXCLUDED.priority, requests = EXCLUDED.requests;
END $fn$;

CREATE OR REPLACE FUNCTION mdq_quota_set_claim(p_client text, p_claim_key text, p_requests bigint)
RETURNS void LANGUAGE plpgsql AS $fn$
BEGIN
  PERFORM mdq_quota_lock_client(p_client);
  UPDATE mdq_quota_claims SET requests = GREATEST(requests, p_requests)
  WHERE client_id = p_client AND claim_key = p_claim_key;
END $fn$;

-- Joins the ledger: the run's row under a fresh lease, its claim (new unless a shard holds it; a claim
-- no other live run holds starts again) and its pipeline's standing claim.
CREATE OR REPLACE FUNCTION mdq_quota_register(p jsonb) RETURNS void
LANGUAGE plpgsql AS $fn$
DECLARE
  v_client mdq_quota_clients := mdq_quota_lock_client(p->>'clientId');
  v_rank smallint := (p->>'rank')::smallint;
BEGIN
  PERFORM mdq_quota_expire(v_client.client_id);
  INSERT INTO mdq_quota_runs (run_id, client_id, pipeline, claim_key, priority, reserve, day, lease_ms, lease_until)
  VALUES (p->>'runId', v_client.client_id, p->>'pipeline', p->>'claimKey', v_rank, (p->>'reserve')::bigint,
          v_client.day, (p->>'leaseMs')::integer,
          now() + make_interval(secs => (p->>'leaseMs')::integer / 1000.0));
  INSERT INTO mdq_quota_claims (client_id, claim_key, pipeline, priority)
  VALUES (v_client.client_id, p->>'claimKey', p->>'pipeline', v_rank)
  ON CONFLICT (client_id, claim_key) DO NOTHING;
  IF NOT EXISTS (SELECT 1 FROM mdq_quota_runs WHERE client_id = v_client.client_id
                 AND claim_key = p->>'claimKey' AND finished_at IS NULL AND run_id <> p->>'runId') THEN
    UPDATE mdq_quota_claims SET requests = 0, spent = 0, priority = v_rank
    WHERE client_id = v_client.client_id AND claim_key = p->>'claimKey';
  END IF;
  PERFORM mdq_quota_write_standing(v_client.client_id, p->>'pipeline', v_rank, p->'standing');
END $fn$;

-- Ends the run: its last report, what it held back to the day's count, and after a complete run its
-- pipeline's standing claim released for the day with what the day cost kept (for standing: auto).
CREATE OR REPLACE FUNCTION mdq_quota_finish(p jsonb) RETURNS void
LANGUAGE plpgsql AS $fn$
DECLARE
  v_client mdq_quota_clients := mdq_quota_lock_client(p->>'clientId');
  v_ended record;
BEGIN
  PERFORM mdq_quota_expire(v_client.client_id);
  PERFORM mdq_quota_record(v_client.client_id, p->>'runId', (p->>'answered')::bigint, (p->>'observed')::bigint);
  SELECT * INTO v_client FROM mdq_quota_clients WHERE client_id = v_client.client_id;
  WITH ending AS (
    SELECT run_id, held FROM mdq_quota_runs WHERE run_id = p->>'runId' AND finished_at IS NULL FOR UPDATE)
  UPDATE mdq_quota_runs r SET finished_at = now(), outcome = p->>'outcome', held = 0, slots = 0,
    yielded_to = CASE WHEN p->>'outcome' = 'yielded' THEN COALESCE(p->>'yieldedTo', r.yielded_to) END
  FROM ending WHERE r.run_id = ending.run_id RETURNING ending.held, r.pipeline INTO v_ended;
  IF NOT FOUND THEN RETURN; END IF;
  IF v_ended.held > 0 AND v_client.remaining IS NOT NULL THEN
    UPDATE mdq_quota_clients SET remaining = remaining + v_ended.held WHERE client_id = v_client.client_id;
  END IF;
  IF p->>'outcome' = 'complete' THEN
    UPDATE mdq_quota_standing SET finished_day = v_client.day,
      last_spent = CASE WHEN spent_day = v_client.day THEN day_spent ELSE 0 END
    WHERE client_id = v_client.client_id AND pipeline = v_ended.pipeline;
  END IF;
END $fn$;
`;
