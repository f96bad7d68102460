// The quota ledger's tables, created and migrated by the exporter itself: each migration runs once, in
// order, recorded in mdq_quota_schema; docs/fleet.md shows the same SQL.
import type { PoolClient } from "pg";

/** One step of the schema; the index + 1 is the version it brings the ledger to. */
export const LEDGER_MIGRATIONS: readonly string[] = [
  `
CREATE TABLE mdq_quota_clients (
  client_id           text PRIMARY KEY,
  day                 integer NOT NULL DEFAULT 1,
  day_started_at      timestamptz NOT NULL DEFAULT now(),
  day_first_remaining bigint,
  day_lowest_reported bigint,
  remaining           bigint,
  reported            bigint,
  reported_at         timestamptz
);
CREATE TABLE mdq_quota_runs (
  run_id      text PRIMARY KEY,
  client_id   text NOT NULL REFERENCES mdq_quota_clients (client_id),
  pipeline    text NOT NULL,
  claim_key   text NOT NULL,
  priority    smallint NOT NULL,
  reserve     bigint NOT NULL,
  day         integer NOT NULL,
  held        bigint NOT NULL DEFAULT 0,
  spent       bigint NOT NULL DEFAULT 0,
  slots       integer NOT NULL DEFAULT 0,
  lease_ms    integer NOT NULL,
  lease_until timestamptz NOT NULL,
  started_at  timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz,
  outcome     text NOT NULL DEFAULT 'running',
  yielded_to  text
);
CREATE INDEX mdq_quota_runs_live ON mdq_quota_runs (client_id) WHERE finished_at IS NULL;
CREATE TABLE mdq_quota_claims (
  client_id text NOT NULL REFERENCES mdq_quota_clients (client_id),
  claim_key text NOT NULL,
  pipeline  text NOT NULL,
  priority  smallint NOT NULL,
  requests  bigint NOT NULL DEFAULT 0,
  spent     bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (client_id, claim_key)
);
CREATE TABLE mdq_quota_standing (
  client_id    text NOT NULL REFERENCES mdq_quota_clients (client_id),
  pipeline     text NOT NULL,
  priority     smallint NOT NULL,
  requests     bigint,
  spent_day    integer NOT NULL DEFAULT 0,
  day_spent    bigint NOT NULL DEFAULT 0,
  last_spent   bigint,
  finished_day integer NOT NULL DEFAULT 0,
  PRIMARY KEY (client_id, pipeline)
);`,
];

/** The version this exporter's schema has. */
export const LEDGER_SCHEMA_VERSION = LEDGER_MIGRATIONS.length;

/**
 * Brings the ledger's schema to this exporter's version. Runs under an advisory lock, so processes
 * starting together migrate once; a ledger newer than this exporter is left alone and reported.
 * @returns the version the ledger had before, 0 for an empty database
 */
export async function migrateLedger(db: PoolClient): Promise<number> {
  await db.query("BEGIN");
  try {
    // One key for the ledger's migrations, whatever the database holds besides.
    await db.query("SELECT pg_advisory_xact_lock(7272030)");
    await db.query("CREATE TABLE IF NOT EXISTS mdq_quota_schema (version integer NOT NULL)");
    const found = await db.query<{ version: number }>("SELECT version FROM mdq_quota_schema");
    const before = found.rows[0]?.version ?? 0;
    if (found.rows.length === 0) await db.query("INSERT INTO mdq_quota_schema (version) VALUES (0)");
    for (let version = before; version < LEDGER_MIGRATIONS.length; version++) {
      await db.query(LEDGER_MIGRATIONS[version] ?? "");
      await db.query("UPDATE mdq_quota_schema SET version = $1", [version + 1]);
    }
    await db.query("COMMIT");
    return before;
  } catch (error) {
    await db.query("ROLLBACK").catch(() => undefined);
    throw error;
  }
}
