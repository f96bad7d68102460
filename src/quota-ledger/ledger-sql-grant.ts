// The ledger's one busy step as a PL/pgSQL function (schema version 2): a run reports what it spent and
// saw, and asks for its next block, in one statement. The call runs in one transaction holding the
// client's row (SELECT … FOR UPDATE), so two runs racing for the last requests are served one after
// the other and never both get them. The grant comes back as JSON; ledger-grant.ts checks its shape.

export const GRANT_FUNCTIONS = `
-- The most one grant hands out from p_left (the day's count, or the room below higher claims): a
-- p_share-th of it, at least p_min_cap (both given by the exporter, ledger-block-size.ts).
CREATE OR REPLACE FUNCTION mdq_quota_block_cap(p_left bigint, p_share numeric, p_min_cap bigint)
RETURNS bigint LANGUAGE sql IMMUTABLE AS $fn$
  SELECT GREATEST(p_min_cap, ceil(p_left / p_share))::bigint
$fn$;

CREATE OR REPLACE FUNCTION mdq_quota_take_block(p jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $fn$
DECLARE
  v_client mdq_quota_clients := mdq_quota_lock_client(p->>'clientId');
  v_run mdq_quota_runs;
  v_want bigint := (p->>'want')::bigint;
  v_share numeric := (p->>'share')::numeric;
  v_min_cap bigint := (p->>'minCap')::bigint;
  v_finishing boolean := COALESCE((p->>'finishing')::boolean, false);
  v_kept bigint := 0;        -- requests higher-priority claims and standing claims keep
  v_running bigint := 0;     -- of which the claims of runs under way
  v_yield_pipeline text;     -- the first of those pipelines, the one a yielding run names
  v_kept_row record;
  v_due boolean;
  v_own_left bigint;
  v_free bigint;
  v_room bigint;
  v_cap bigint;
  v_day_block bigint;
  v_granted bigint := 0;
  v_yield text;
  v_exhausted boolean := false;
  v_probe boolean := false;
  v_slots bigint;
  v_remaining bigint;
BEGIN
  PERFORM mdq_quota_expire(v_client.client_id);
  PERFORM mdq_quota_record(v_client.client_id, p->>'runId', (p->>'answered')::bigint, (p->>'observed')::bigint);
  IF jsonb_typeof(p->'claim') = 'object' THEN
    UPDATE mdq_quota_claims SET requests = GREATEST(requests, (p->'claim'->>'requests')::bigint)
    WHERE client_id = v_client.client_id AND claim_key = p->'claim'->>'claimKey';
  END IF;
  SELECT * INTO v_client FROM mdq_quota_clients WHERE client_id = v_client.client_id;
  SELECT * INTO v_run FROM mdq_quota_runs WHERE run_id = p->>'runId';
  IF NOT FOUND THEN
    RAISE EXCEPTION 'run % is not registered in the quota ledger', p->>'runId';
  END IF;
  FOR v_kept_row IN
    WITH claims AS (
      SELECT c.pipeline, sum(GREATEST(c.requests - c.spent, 0)) AS requests
      FROM mdq_quota_claims c
      WHERE c.client_id = v_client.client_id AND c.priority < v_run.priority AND c.pipeline <> v_run.pipeline
        AND EXISTS (SELECT 1 FROM mdq_quota_runs r WHERE r.client_id = c.client_id
                    AND r.claim_key = c.claim_key AND r.finished_at IS NULL)
      GROUP BY c.pipeline),
    standing AS (
      SELECT s.pipeline,
        CASE WHEN s.finished_day = v_client.day THEN 0
             ELSE GREATEST(COALESCE(s.requests, s.last_spent, 0)
                           - CASE WHEN s.spent_day = v_client.day THEN s.day_spent ELSE 0 END, 0) END AS requests
      FROM mdq_quota_standing s
      WHERE s.client_id = v_client.client_id AND s.priority < v_run.priority AND s.pipeline <> v_run.pipeline)
    SELECT COALESCE(c.pipeline, s.pipeline) AS pipeline,
           GREATEST(COALESCE(c.requests, 0), COALESCE(s.requests, 0)) AS requests,
           COALESCE(c.requests, 0) AS running
    FROM claims c FULL OUTER JOIN standing s ON s.pipeline = c.pipeline
    ORDER BY 2 DESC
  LOOP
    CONTINUE WHEN v_kept_row.requests <= 0;
    v_kept := v_kept + v_kept_row.requests;
    v_running := v_running + v_kept_row.running;
    v_yield_pipeline := COALESCE(v_yield_pipeline, v_kept_row.pipeline);
  END LOOP;
  v_due := v_client.reported_at IS NULL
    OR v_client.reported_at < now() - make_interval(secs => (p->>'recheckAfterMs')::double precision / 1000);
  SELECT GREATEST(requests - spent, 0) INTO v_own_left FROM mdq_quota_claims
  WHERE client_id = v_client.client_id AND claim_key = v_run.claim_key;
  v_own_left := COALESCE(v_own_left, 0);

  IF v_client.remaining IS NULL THEN
    -- Nobody has heard from the service yet: one request, whose answer tells the fleet the count.
    v_granted := 1;
  ELSE
    v_free := v_client.remaining - v_run.reserve;
    v_room := v_free - v_kept;
    IF v_room < 1 AND v_due THEN
      -- A count this run cannot use may be yesterday's: one request may find the service's new day
      -- (its time kept, so the fleet sends one probe per recheck interval, not one per run).
      v_granted := 1;
      v_probe := true;
    ELSIF v_room >= 1 THEN
      -- With a share asked for, below higher claims a block is that part of the room they leave.
      v_cap := CASE WHEN v_share IS NULL THEN v_room
                    ELSE mdq_quota_block_cap(CASE WHEN v_kept > 0 THEN v_room ELSE v_free END, v_share, v_min_cap) END;
      -- Yield when the room is about to run out (less than two of the blocks the day allows), or when
      -- a higher-priority run under way leaves too little to see this one through.
      v_day_block := CASE WHEN v_share IS NULL THEN v_want
                          ELSE LEAST(v_want, mdq_quota_block_cap(v_free, v_share, v_min_cap)) END;
      IF v_kept > 0 AND (v_room < 2 * v_day_block OR (v_running > 0 AND v_room < v_own_left)) THEN
        v_yield := v_yield_pipeline;
      END IF;
      IF v_yield IS NOT NULL AND v_due AND NOT v_finishing THEN
        -- Not on a stale count, though: one request first, whose answer may show a new quota day.
        v_granted := 1;
        v_yield := NULL;
        v_probe := true;
      ELSE
        v_granted := LEAST(v_want, v_room, v_cap);
      END IF;
    ELSIF v_free >= 1 THEN
      -- Higher claims take what is left: only a run finishing its slices gets more, from the day's rest.
      v_cap := CASE WHEN v_share IS NULL THEN v_free ELSE mdq_quota_block_cap(v_free, v_share, v_min_cap) END;
      v_granted := CASE WHEN v_finishing THEN LEAST(v_want, v_free, v_cap) ELSE 0 END;
      v_yield := v_yield_pipeline;
    ELSE
      v_exhausted := true;
    END IF;
  END IF;

  IF p->>'maxInFlight' IS NOT NULL THEN
    SELECT GREATEST(0, LEAST((p->>'slotsWanted')::bigint,
                             (p->>'maxInFlight')::bigint - COALESCE(sum(slots), 0)))
    INTO v_slots FROM mdq_quota_runs
    WHERE client_id = v_client.client_id AND finished_at IS NULL AND run_id <> v_run.run_id;
  END IF;
  v_remaining := v_client.remaining - v_granted;
  UPDATE mdq_quota_clients SET remaining = v_remaining,
    reported_at = CASE WHEN v_probe THEN now() ELSE reported_at END
  WHERE client_id = v_client.client_id;
  UPDATE mdq_quota_runs SET held = held + v_granted, slots = COALESCE(v_slots, slots), day = v_client.day,
    yielded_to = COALESCE(v_yield, yielded_to), lease_until = now() + make_interval(secs => lease_ms / 1000.0)
  WHERE run_id = v_run.run_id;
  RETURN jsonb_build_object('granted', v_granted, 'yieldTo', v_yield, 'exhausted', v_exhausted,
    'probe', v_probe, 'slots', v_slots, 'remaining', v_remaining, 'day', v_client.day);
END $fn$;
`;
