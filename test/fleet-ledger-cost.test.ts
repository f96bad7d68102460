// What the quota ledger costs a run: its statements to PostgreSQL (each a round trip) stay under 2% of
// the requests the service counts, on a real run of several hundred requests against the emulator, with
// the ledger on a real PostgreSQL. The exporter's own count (its debug log, the metric's source) is held
// against what PostgreSQL itself counted for the ledger's database: the statements pg_stat_statements
// saw, and the transactions (each statement one, each connection one), so neither can flatter the other.
import { join } from "node:path";
import pg from "pg";
import { beforeAll, describe, expect, test } from "vitest";
import { spawnCli, startTestService, waitFor } from "./support/cli-harness.js";
import { freshLedgerUrl, quotaRequests, useFleetFloor, writeFleetPipeline } from "./support/fleet.js";

const floor = useFleetFloor("fleet-cost", { preload: ["pg_stat_statements"] });

beforeAll(async () => {
  await withAdmin((admin) => admin.query("CREATE EXTENSION pg_stat_statements"));
});

/** Runs `work` on a connection to the cluster's own database, so that reading adds nothing to a ledger's. */
async function withAdmin<T>(work: (admin: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: floor.postgres.url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Transactions PostgreSQL counted in the database behind `url` (committed and rolled back). */
async function serverTransactions(url: string): Promise<number> {
  const found = await withAdmin((admin) =>
    admin.query<{ count: string }>(
      `SELECT xact_commit + xact_rollback AS count FROM pg_stat_database WHERE datname = $1`,
      [new URL(url).pathname.slice(1)],
    ),
  );
  return Number(found.rows[0]?.count ?? 0);
}

/** Statements PostgreSQL executed in the database behind `url`, each call counted (pg_stat_statements). */
async function serverStatements(url: string): Promise<number> {
  const found = await withAdmin((admin) =>
    admin.query<{ calls: string | null }>(
      `SELECT sum(s.calls) AS calls FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid
       WHERE d.datname = $1`,
      [new URL(url).pathname.slice(1)],
    ),
  );
  return Number(found.rows[0]?.calls ?? 0);
}

/** The exporter's "Left the quota ledger." debug line, parsed from its JSON log. */
function ledgerSummary(stderr: string): {
  roundTrips: number;
  statements: number;
  blocks: number;
  granted: number;
} {
  const line = stderr.split("\n").find((text) => text.includes('"Left the quota ledger."'));
  if (line === undefined) throw new Error(`no "Left the quota ledger." line in:\n${stderr}`);
  return JSON.parse(line) as { roundTrips: number; statements: number; blocks: number; granted: number };
}

describe("the quota ledger's cost", () => {
  test("a run of several hundred requests sends the ledger fewer statements than 2% of them", async () => {
    const service = await startTestService({ seed: 11, density: 40 });
    try {
      const ledger = await freshLedgerUrl(floor.postgres);
      // Small pages: one request per 10 records over two days of hourly slices.
      const file = await writeFleetPipeline(floor.dir, {
        name: "nightly",
        hours: 48,
        pageSize: 10,
        concurrency: 4,
      });
      const run = spawnCli(["run", file, "--log-level", "debug"], {
        ...service.env,
        OUT: join(floor.dir, "cost"),
        MDQ_QUOTA_LEDGER: ledger,
      });
      expect(await run.exited, run.stderr()).toBe(0);
      const requests = quotaRequests(service.emulator);
      expect(requests).toBeGreaterThanOrEqual(300);
      const summary = ledgerSummary(run.stderr());
      expect(summary.roundTrips / requests).toBeLessThan(0.02);
      // Every statement the server executed in the ledger's database is one the exporter counted: a
      // step sent as several statements (BEGIN, SELECT … FOR UPDATE, UPDATEs, COMMIT) shows here.
      expect(await serverStatements(ledger)).toBe(summary.statements);
      // Each statement is its own transaction, and so is each connection opened: together the round
      // trips (PostgreSQL flushes its counts as the run's connections close, so they may trail the exit).
      const seen = await waitFor(
        async () => {
          const count = await serverTransactions(ledger);
          return count >= summary.roundTrips ? count : undefined;
        },
        "PostgreSQL to count the run's transactions",
        10_000,
      );
      expect(seen).toBe(summary.roundTrips);
      // Granted covers what was sent; what the run did not spend went back at its end.
      expect(summary.granted).toBeGreaterThanOrEqual(requests);
    } finally {
      await service.close();
    }
  }, 120_000);
});
