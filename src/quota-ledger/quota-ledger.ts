// The connection to the quota ledger, a PostgreSQL database named by URL: opened (and its schema
// migrated) once per process, each step of a run one statement (a function call, its own transaction),
// every failure to reach it one error whose message names the server without its credentials.
import type { Pool, PoolClient, QueryResultRow } from "pg";
import { errorMessage, EtlError, hasCode } from "../errors.js";
import { LEDGER_SCHEMA_VERSION, migrateLedger } from "./ledger-schema.js";
import { takeBlock } from "./ledger-grant.js";
import { readSnapshot } from "./ledger-snapshot.js";
import type { LedgerSnapshot } from "./ledger-snapshot.js";
import { PRIORITY_RANK } from "./ledger-types.js";
import type { LedgerSend, QuotaPriority, RunEnd, RunRegistration } from "./ledger-types.js";
import { describeLedgerUrl, redactLedgerText } from "./ledger-url.js";

/**
 * The ledger's steps, each one atomic statement: what openQuotaLedger returns.
 * @example
 * const ledger = await openQuotaLedger("postgres://mdq@db:5432/quota");
 * await ledger.register(run); const grant = await ledger.takeBlock(request); await ledger.close();
 */
export type QuotaLedger = Awaited<ReturnType<typeof openQuotaLedger>>;

export interface OpenLedgerOptions {
  /** How long to wait for a connection. Default 5000. */
  connectTimeoutMs?: number;
}

const SCHEMES = new Set(["postgres:", "postgresql:"]);

/** Whether `url` names a ledger this exporter can use (PostgreSQL). */
export function isLedgerUrl(url: string): boolean {
  try {
    return SCHEMES.has(new URL(url).protocol);
  } catch {
    return false;
  }
}

/**
 * Whether the server answered with an error of its own (an SQLSTATE outside the connection classes):
 * the ledger is there, and the statement is at fault.
 */
function isStatementError(error: unknown): boolean {
  if (!(error instanceof Error) || !("code" in error) || typeof error.code !== "string") return false;
  return /^[0-9A-Z]{5}$/.test(error.code) && !/^(08|57)/.test(error.code);
}

/** The error a failure to reach the ledger becomes: the server named, its credentials not. */
function ledgerUnreachable(url: string, error: unknown, when: string): EtlError {
  const detail = redactLedgerText(errorMessage(error), url);
  const refused = isStatementError(error);
  return new EtlError(
    refused ? "INTERNAL" : "QUOTA_LEDGER_UNREACHABLE",
    `the quota ledger ${describeLedgerUrl(url)} ${refused ? "refused a statement" : "is unreachable"} ${when}: ${detail}`,
    { cause: new Error(detail) },
  );
}

/** Connects, migrates the schema, and returns the ledger; throws QUOTA_LEDGER_UNREACHABLE. */
// Its type is what it returns (QuotaLedger): the steps are stated once.
export async function openQuotaLedger(url: string, options: OpenLedgerOptions = {}) {
  // Loaded here, not with the module: a run without a ledger (most) should not pay its start-up, about
  // 50 ms of every command's.
  const { default: pg } = await import("pg");
  const pool = new pg.Pool({
    connectionString: url,
    max: 2,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5000,
    idleTimeoutMillis: 10_000,
    allowExitOnIdle: true,
  });
  // A connection the server drops must not take the process down, idle in the pool or checked out
  // between two statements: the statement under way, or the next one, fails instead.
  pool.on("error", () => undefined);
  let statements = 0;
  let connections = 0;
  pool.on("connect", (connection) => {
    connection.on("error", () => undefined);
    // Opening a connection costs the server a transaction of its own (and the wire a few exchanges).
    connections += 1;
  });
  /** Counts each statement sent on `db`, before it goes (a statement that fails cost a trip too). */
  const counted =
    (db: Pool | PoolClient): LedgerSend =>
    <R extends QueryResultRow>(sql: string, values?: readonly unknown[]) => {
      statements += 1;
      return db.query<R>(sql, values && [...values]);
    };
  const step =
    <A extends unknown[], T>(work: (send: LedgerSend, ...args: A) => Promise<T>, when: string) =>
    async (...args: A): Promise<T> => {
      try {
        return await work(counted(pool), ...args);
      } catch (error) {
        throw ledgerUnreachable(url, error, when);
      }
    };
  /** A step that is one call of a function of the ledger's schema, its answer unused. */
  const call = <A extends unknown[]>(sql: string, when: string, values: (...args: A) => unknown[]) =>
    step(async (send, ...args: A) => void (await send(sql, values(...args))), when);
  // A reading of several statements (the snapshot) holds one connection in one transaction.
  const inTransaction = async <T>(work: (send: LedgerSend) => Promise<T>, when: string): Promise<T> => {
    let tx: PoolClient;
    try {
      tx = await pool.connect();
    } catch (error) {
      throw ledgerUnreachable(url, error, when);
    }
    const send = counted(tx);
    let broken = false;
    try {
      await send("BEGIN");
      const result = await work(send);
      await send("COMMIT");
      return result;
    } catch (error) {
      await send("ROLLBACK").catch(() => (broken = true));
      throw ledgerUnreachable(url, error, when);
    } finally {
      tx.release(broken);
    }
  };
  try {
    // One statement; a ledger newer than this exporter is left as it was.
    const found = await migrateLedger(counted(pool));
    if (found > LEDGER_SCHEMA_VERSION) {
      throw new EtlError(
        "QUOTA_LEDGER_INCOMPATIBLE",
        `the quota ledger ${describeLedgerUrl(url)} has schema version ${found}; this exporter knows versions up to ${LEDGER_SCHEMA_VERSION}`,
      );
    }
  } catch (error) {
    await pool.end().catch(() => undefined);
    if (hasCode(error, "QUOTA_LEDGER_INCOMPATIBLE")) throw error;
    throw ledgerUnreachable(url, error, "at the start");
  }
  return {
    /** The ledger's URL without credentials, for messages. */
    describe: describeLedgerUrl(url),
    /**
     * What the ledger cost this process so far, beside its requests to the service: every statement
     * sent (each a round trip to PostgreSQL), and each connection opened.
     */
    get roundTrips(): number {
      return statements + connections;
    },
    /** Of `roundTrips`, the statements sent (the rest are connections opened). */
    get statements(): number {
      return statements;
    },
    // Joins the ledger: the run's row under a fresh lease, and its claim (new unless a shard holds it).
    register: call(
      `SELECT mdq_quota_register($1::jsonb)`,
      "when the run joined it",
      (run: RunRegistration) => [
        JSON.stringify({ ...run, rank: PRIORITY_RANK[run.priority], standing: run.standing ?? null }),
      ],
    ),
    // The requests the run's plan needs: the claim, the largest any shard of it planned.
    setClaim: call(
      `SELECT mdq_quota_set_claim($1, $2, $3)`,
      "when the run claimed its plan",
      (clientId: string, claimKey: string, requests: number) => [clientId, claimKey, requests],
    ),
    takeBlock: step(takeBlock, "when reserving requests"),
    renewLease: step(async (send, runId: string) => {
      const renewed = await send(
        `UPDATE mdq_quota_runs SET lease_until = now() + make_interval(secs => lease_ms / 1000.0)
     WHERE run_id = $1 AND finished_at IS NULL AND lease_until >= now()`,
        [runId],
      );
      return (renewed.rowCount ?? 0) > 0;
    }, "when renewing the lease"),
    finish: call(`SELECT mdq_quota_finish($1::jsonb)`, "when the run ended", (end: RunEnd) => [
      JSON.stringify(end),
    ]),
    // A pipeline's standing claim written (or changed); undefined, as JSON null, removes it.
    registerStanding: call(
      `SELECT mdq_quota_write_standing($1, $2, $3::smallint, $4::jsonb)`,
      "when writing the standing claim",
      (
        clientId: string,
        pipeline: string,
        priority: QuotaPriority,
        standing: RunRegistration["standing"],
      ) => [clientId, pipeline, PRIORITY_RANK[priority], JSON.stringify(standing ?? null)],
    ),
    snapshot: (clientId: string | undefined): Promise<LedgerSnapshot> =>
      inTransaction((send) => readSnapshot(send, clientId), "when reading it"),
    close: (): Promise<void> => pool.end(),
  };
}
