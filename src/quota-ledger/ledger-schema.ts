// The quota ledger's tables and functions, created and migrated by the exporter itself: each migration
// runs once, in order, recorded in mdq_quota_schema; docs/fleet.md shows the same SQL.
import { z } from "zod";
import { ACCOUNTS_FUNCTIONS } from "./ledger-sql-accounts.js";
import { GRANT_FUNCTIONS } from "./ledger-sql-grant.js";
import type { LedgerSend } from "./ledger-types.js";

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
  // Version 2: each step of a run one statement, a function call doing the transaction server-side.
  ACCOUNTS_FUNCTIONS + GRANT_FUNCTIONS,
];

/** The version this exporter's schema has. */
export const LEDGER_SCHEMA_VERSION = LEDGER_MIGRATIONS.length;

/** The SQLSTATE the migration raises on a ledger newer than this exporter, its version the detail. */
const NEWER_LEDGER = "MQ001";

/** A migration quoted for EXECUTE inside the migrating block; no migration holds the tag. */
const quoted = (sql: string, version: number): string => `$mdq_v${version}$${sql}$mdq_v${version}$`;

/**
 * The migration as one statement, one transaction: under an advisory lock, so processes starting
 * together migrate once, the versions this ledger lacks are applied; a newer ledger raises NEWER_LEDGER
 * and is left as it was.
 */
function migrationStatement(): string {
  const latest = LEDGER_MIGRATIONS.length;
  const steps = LEDGER_MIGRATIONS.map(
    (sql, index) => `  IF v_found < ${index + 1} THEN EXECUTE ${quoted(sql, index + 1)}; END IF;`,
  ).join("\n");
  return `DO $mdq_migrate$ DECLARE v_found integer; BEGIN
  PERFORM pg_advisory_xact_lock(7272030);
  CREATE TABLE IF NOT EXISTS mdq_quota_schema (version integer NOT NULL);
  SELECT version INTO v_found FROM mdq_quota_schema;
  IF v_found IS NULL THEN
    INSERT INTO mdq_quota_schema (version) VALUES (0);
    v_found := 0;
  END IF;
  IF v_found > ${latest} THEN
    RAISE EXCEPTION 'the ledger has schema version %', v_found USING ERRCODE = '${NEWER_LEDGER}', DETAIL = v_found::text;
  END IF;
${steps}
  UPDATE mdq_quota_schema SET version = ${latest};
END $mdq_migrate$`;
}

const NewerLedger = z.object({ code: z.literal(NEWER_LEDGER), detail: z.string().regex(/^[0-9]+$/) });

/**
 * Brings the ledger's schema to this exporter's version in one statement; a ledger newer than this
 * exporter is left alone, its version returned for the caller to report.
 * @returns the ledger's version now: this exporter's, or a newer one left as it was
 */
export async function migrateLedger(send: LedgerSend): Promise<number> {
  try {
    await send(migrationStatement());
    return LEDGER_SCHEMA_VERSION;
  } catch (error) {
    const newer = NewerLedger.safeParse(error);
    if (newer.success) return Number(newer.data.detail);
    throw error;
  }
}
