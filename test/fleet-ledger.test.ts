// The quota ledger's statements against a real PostgreSQL (a throwaway cluster): the schema made and
// kept at its version, grants that never exceed the day's count less the reserve however runs race,
// priorities and standing claims, leases that give a block back, and a new quota day seen in a jump.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import fc from "fast-check";
import { readFile } from "node:fs/promises";
import pg from "pg";
import { openQuotaLedger } from "../src/quota-ledger/quota-ledger.js";
import type { QuotaLedger } from "../src/quota-ledger/quota-ledger.js";
import type { BlockRequest, RunRegistration } from "../src/quota-ledger/ledger-types.js";
import { LEDGER_MIGRATIONS, LEDGER_SCHEMA_VERSION } from "../src/quota-ledger/ledger-schema.js";
import { LedgerGate } from "../src/quota-ledger/ledger-gate.js";
import { systemClock } from "../src/api/clock.js";
import { createSilentLogger } from "../src/logger.js";
import { hasCode } from "../src/errors.js";
import { startPostgres } from "./support/postgres.js";
import type { TestPostgres } from "./support/postgres.js";

let postgres: TestPostgres;
let ledger: QuotaLedger;
let db: pg.Pool;
let clients = 0;

beforeAll(async () => {
  postgres = await startPostgres();
  ledger = await openQuotaLedger(postgres.url);
  db = new pg.Pool({ connectionString: postgres.url, max: 2 });
}, 60_000);

afterAll(async () => {
  await db?.end();
  await ledger?.close();
  await postgres?.close();
});

/** A client of its own per test, so tests share the cluster and nothing else. */
function freshClient(): string {
  clients += 1;
  return `client-${clients}`;
}

/** Run ids are unique in the ledger: each test's are prefixed with its client. */
const idOf = (clientId: string, name: string): string => `${clientId}/${name}`;

function registration(
  clientId: string,
  runId: string,
  overrides: Partial<RunRegistration> = {},
): RunRegistration {
  return {
    runId: idOf(clientId, runId),
    clientId,
    pipeline: runId,
    claimKey: `${runId} window`,
    priority: "normal",
    reserve: 0,
    leaseMs: 60_000,
    standing: undefined,
    ...overrides,
  };
}

function ask(clientId: string, runId: string, overrides: Partial<BlockRequest> = {}): BlockRequest {
  return {
    runId: idOf(clientId, runId),
    clientId,
    want: 10,
    slotsWanted: 4,
    answered: 0,
    observed: undefined,
    finishing: false,
    maxInFlight: undefined,
    recheckAfterMs: 600_000,
    ...overrides,
  };
}

/** Registers a run and tells the ledger the service reported `remaining`. */
async function seed(
  clientId: string,
  runId: string,
  remaining: number,
  overrides: Partial<RunRegistration> = {},
) {
  await ledger.register(registration(clientId, runId, overrides));
  const first = await ledger.takeBlock(ask(clientId, runId, { want: 1 }));
  expect(first.granted).toBe(1);
  // The one request answered, and the count the service reported with it.
  return ledger.takeBlock(ask(clientId, runId, { want: 0, answered: 1, observed: remaining }));
}

describe("the quota ledger's schema", () => {
  test("is created with its version recorded, and opening again migrates nothing", async () => {
    const again = await openQuotaLedger(postgres.url);
    await again.close();
    const version = await db.query<{ version: number }>("SELECT version FROM mdq_quota_schema");
    expect(version.rows).toEqual([{ version: LEDGER_SCHEMA_VERSION }]);
    const tables = await db.query<{ tablename: string }>(
      "SELECT tablename FROM pg_tables WHERE tablename LIKE 'mdq_quota_%' ORDER BY 1",
    );
    expect(tables.rows.map((row) => row.tablename)).toEqual([
      "mdq_quota_claims",
      "mdq_quota_clients",
      "mdq_quota_runs",
      "mdq_quota_schema",
      "mdq_quota_standing",
    ]);
  });

  test("a version 1 ledger is migrated in place: its runs kept, and each step of theirs one statement", async () => {
    await db.query("CREATE DATABASE ledger_v1");
    const url = postgres.url.replace(/\/postgres$/, "/ledger_v1");
    const old = new pg.Client({ connectionString: url });
    await old.connect();
    try {
      // The ledger as the first schema left it: a client with a reported count, a run under way.
      await old.query("CREATE TABLE mdq_quota_schema (version integer NOT NULL)");
      await old.query("INSERT INTO mdq_quota_schema (version) VALUES (1)");
      await old.query(LEDGER_MIGRATIONS[0] ?? "");
      await old.query(`INSERT INTO mdq_quota_clients (client_id, remaining, reported, reported_at,
        day_first_remaining, day_lowest_reported) VALUES ('c', 100, 100, now(), 100, 100)`);
      await old.query(`INSERT INTO mdq_quota_runs (run_id, client_id, pipeline, claim_key, priority, reserve,
        day, lease_ms, lease_until) VALUES ('c/nightly', 'c', 'nightly', 'nightly window', 1, 0, 1, 60000,
        now() + interval '1 minute')`);
      await old.query(`INSERT INTO mdq_quota_claims (client_id, claim_key, pipeline, priority)
        VALUES ('c', 'nightly window', 'nightly', 1)`);
      const migrated = await openQuotaLedger(url);
      try {
        expect(migrated.statements).toBe(1);
        const grant = await migrated.takeBlock(ask("c", "nightly", { want: 30 }));
        expect(grant).toMatchObject({ granted: 30, remaining: 70, day: 1, exhausted: false });
        expect(migrated.statements).toBe(2);
        expect(await migrated.renewLease("c/nightly")).toBe(true);
        await migrated.finish({
          runId: "c/nightly",
          clientId: "c",
          answered: 20,
          observed: undefined,
          outcome: "complete",
          yieldedTo: undefined,
        });
        expect(migrated.statements).toBe(4);
      } finally {
        await migrated.close();
      }
      const version = await old.query<{ version: number }>("SELECT version FROM mdq_quota_schema");
      expect(version.rows).toEqual([{ version: LEDGER_SCHEMA_VERSION }]);
      // The 10 granted and not spent went back to the day's count when the run ended.
      const client = await old.query<{ remaining: string }>("SELECT remaining FROM mdq_quota_clients");
      expect(client.rows).toEqual([{ remaining: "80" }]);
    } finally {
      await old.end();
    }
  });

  test("docs/fleet.md lists every version's SQL as the exporter runs it", async () => {
    const docs = await readFile(new URL("../docs/fleet.md", import.meta.url), "utf8");
    for (const sql of LEDGER_MIGRATIONS) expect(docs).toContain(sql.trim());
  });

  test("a ledger newer than this exporter is refused, not changed", async () => {
    await db.query("UPDATE mdq_quota_schema SET version = version + 1");
    try {
      await expect(openQuotaLedger(postgres.url)).rejects.toSatisfy((error) =>
        hasCode(error, "QUOTA_LEDGER_INCOMPATIBLE"),
      );
    } finally {
      await db.query("UPDATE mdq_quota_schema SET version = version - 1");
    }
  });
});

describe("grants", () => {
  test("runs racing for the last requests never get more than the day's count less the reserve", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 60 }),
        fc.integer({ min: 0, max: 10 }),
        fc.array(fc.integer({ min: 1, max: 25 }), { minLength: 2, maxLength: 6 }),
        async (remaining, reserve, wants) => {
          const clientId = freshClient();
          await seed(clientId, "first", remaining, { reserve });
          const runs = wants.map((_, index) => `racer-${index}`);
          for (const runId of runs) await ledger.register(registration(clientId, runId, { reserve }));
          // Separate connections, so the statements really run at the same time.
          const racers = await Promise.all(runs.map(() => openQuotaLedger(postgres.url)));
          try {
            const grants = await Promise.all(
              runs.flatMap((runId, index) =>
                [0, 1, 2].map(() => racers[index]!.takeBlock(ask(clientId, runId, { want: wants[index]! }))),
              ),
            );
            const granted = grants.reduce((sum, grant) => sum + grant.granted, 0);
            // The first run's request is answered and reported: `remaining` is what is left.
            expect(granted).toBeLessThanOrEqual(Math.max(0, remaining - reserve));
            // And nothing is held back that was asked for.
            const asked = wants.reduce((sum, want) => sum + 3 * want, 0);
            expect(granted).toBe(Math.min(asked, Math.max(0, remaining - reserve)));
          } finally {
            await Promise.all(racers.map((racer) => racer.close()));
          }
        },
      ),
      { numRuns: 12 },
    );
  }, 60_000);

  test("a lower-priority run yields to a higher claim, and may only finish what it started", async () => {
    const clientId = freshClient();
    await seed(clientId, "nightly", 100, { priority: "high", pipeline: "nightly" });
    await ledger.setClaim(clientId, "nightly window", 80);
    await ledger.register(
      registration(clientId, "backfill", { priority: "low", pipeline: "backfill", reserve: 5 }),
    );
    const low = await ledger.takeBlock(ask(clientId, "backfill", { want: 50 }));
    // 100 left: 79 of the nightly run's claim of 80 still to spend, 5 kept as the backfill's reserve.
    // Too close to the higher claim for another block: it is told to start no more slices.
    expect(low).toMatchObject({ granted: 16, yieldTo: "nightly" });
    const next = await ledger.takeBlock(ask(clientId, "backfill", { want: 10 }));
    expect(next).toMatchObject({ granted: 0, yieldTo: "nightly" });
    const finishing = await ledger.takeBlock(ask(clientId, "backfill", { want: 10, finishing: true }));
    expect(finishing).toMatchObject({ granted: 10, yieldTo: "nightly" });
    // The nightly run is not held back by the lower one's claim.
    const high = await ledger.takeBlock(ask(clientId, "nightly", { want: 70 }));
    expect(high.granted).toBe(70);
  });

  test("a run asking for a share gets a tenth of the day, and below a higher claim a tenth of the room it leaves", async () => {
    const clientId = freshClient();
    await seed(clientId, "nightly", 1000, { priority: "high", pipeline: "nightly" });
    await ledger.register(registration(clientId, "backfill", { priority: "low", pipeline: "backfill" }));
    const first = await ledger.takeBlock(ask(clientId, "backfill", { want: 500, share: 10 }));
    expect(first).toMatchObject({ granted: 100, yieldTo: undefined, remaining: 900 });
    // The nightly run claims 600 (it spent 1 planning): 599 kept, 301 of room below it, 31 granted.
    await ledger.setClaim(clientId, "nightly window", 600);
    const below = await ledger.takeBlock(ask(clientId, "backfill", { want: 500, share: 10 }));
    expect(below).toMatchObject({ granted: 31, yieldTo: undefined });
    // Without a share, all that is asked within the room: the ledger's own rule is unchanged.
    const all = await ledger.takeBlock(ask(clientId, "backfill", { want: 500 }));
    expect(all.granted).toBe(301 - 31);
  });

  test("a lower-priority run told to yield on a stale count first sends one request to check it", async () => {
    // Regression: a run started on a new quota day yielded on the day before's count, before any of
    // its requests could show the service had renewed the quota.
    const clientId = freshClient();
    await seed(clientId, "nightly", 100, { priority: "high", pipeline: "nightly" });
    await ledger.setClaim(clientId, "nightly window", 80);
    await ledger.register(registration(clientId, "backfill", { priority: "low", pipeline: "backfill" }));
    const stale = await ledger.takeBlock(ask(clientId, "backfill", { want: 50, recheckAfterMs: 1 }));
    expect(stale).toMatchObject({ granted: 1, yieldTo: undefined });
    // Checked just now: the count stands, and the run yields.
    const fresh = await ledger.takeBlock(ask(clientId, "backfill", { want: 50, recheckAfterMs: 60_000 }));
    expect(fresh.yieldTo).toBe("nightly");
  });

  test("a standing claim protects a pipeline before its run starts, and is released once it completes", async () => {
    const clientId = freshClient();
    await ledger.registerStanding(clientId, "nightly", "high", 60);
    await seed(clientId, "backfill", 100, { priority: "low", pipeline: "backfill" });
    const low = await ledger.takeBlock(ask(clientId, "backfill", { want: 100 }));
    expect(low).toMatchObject({ granted: 40 });
    await ledger.register(
      registration(clientId, "nightly-run", { pipeline: "nightly", priority: "high", standing: 60 }),
    );
    const high = await ledger.takeBlock(ask(clientId, "nightly-run", { want: 60 }));
    expect(high.granted).toBe(60);
    await ledger.finish({
      runId: idOf(clientId, "nightly-run"),
      clientId,
      answered: 60,
      observed: 0,
      outcome: "complete",
      yieldedTo: undefined,
    });
    const snapshot = await ledger.snapshot(clientId);
    const standing = snapshot.clients[0]?.standing[0];
    expect(standing).toMatchObject({
      pipeline: "nightly",
      protecting: 0,
      finishedToday: true,
      spentToday: 60,
    });
  });

  test("a run whose lease ran out gives its block back", async () => {
    const clientId = freshClient();
    await seed(clientId, "killed", 50);
    const held = await ledger.takeBlock(ask(clientId, "killed", { want: 30 }));
    expect(held.granted).toBe(30);
    await ledger.register(registration(clientId, "other"));
    expect((await ledger.takeBlock(ask(clientId, "other", { want: 30 }))).granted).toBe(20);
    // The lease's end, moved to the past instead of waiting for it.
    await db.query("UPDATE mdq_quota_runs SET lease_until = now() - interval '1 second' WHERE run_id = $1", [
      idOf(clientId, "killed"),
    ]);
    const after = await ledger.takeBlock(ask(clientId, "other", { want: 30 }));
    expect(after.granted).toBe(30);
    const runs = (await ledger.snapshot(clientId)).clients[0]?.runs ?? [];
    expect(runs.find((run) => run.runId === idOf(clientId, "killed"))).toMatchObject({
      outcome: "expired",
      held: 0,
    });
  });

  test("a reported count far above the ledger's starts a new quota day", async () => {
    const clientId = freshClient();
    await seed(clientId, "yesterday", 3);
    const spent = await ledger.takeBlock(ask(clientId, "yesterday", { want: 10 }));
    expect(spent).toMatchObject({ granted: 3, day: 1 });
    const stale = await ledger.takeBlock(ask(clientId, "yesterday", { want: 10, answered: 3, observed: 5 }));
    expect(stale).toMatchObject({ granted: 0, exhausted: true, day: 1 });
    const renewed = await ledger.takeBlock(ask(clientId, "yesterday", { want: 10, observed: 500 }));
    expect(renewed).toMatchObject({ granted: 10, day: 2, remaining: 490 });
  });
});

// Found by the fleet test: a run on yesterday's count was granted the fleet's probe, asked for its next
// block at once (before the probe was answered), was refused on the same stale count, and stopped with
// 75 without ever reporting the new day; every run after it on that day did the same.
describe("a run granted the fleet's probe", () => {
  test("asks for its next block with the probe's answer, and so learns of the new day", async () => {
    const clientId = freshClient();
    await seed(clientId, "yesterday", 3);
    expect(await ledger.takeBlock(ask(clientId, "yesterday", { want: 10 }))).toMatchObject({ granted: 3 });
    await ledger.takeBlock(ask(clientId, "yesterday", { want: 0, answered: 3, observed: 0 }));
    // The last report is older than the recheck interval: the next run may probe.
    await db.query(
      "UPDATE mdq_quota_clients SET reported_at = now() - interval '1 hour' WHERE client_id = $1",
      [clientId],
    );
    await ledger.register(registration(clientId, "today"));
    const gate = new LedgerGate({
      ledger,
      runId: idOf(clientId, "today"),
      clientId,
      pipeline: "today",
      priority: "normal",
      claimKey: "today window",
      blockSize: 10,
      slotsWanted: 4,
      maxInFlight: undefined,
      recheckAfterMs: 60_000,
      leaseMs: 60_000,
      reserve: 0,
      log: createSilentLogger(),
      clock: systemClock,
    });
    await gate.permit("/v3/jobs/query");
    expect(gate.counts).toMatchObject({ blocks: 1, granted: 1 });
    // The run's next request waits for the probe's answer rather than for a block on the old count.
    const next = gate.permit("/v3/jobs/query");
    gate.observe(120);
    gate.answered();
    await next;
    expect(gate.counts).toMatchObject({ blocks: 2, day: 2 });
    expect(gate.counts.granted).toBeGreaterThan(1);
    await gate.close("complete");
  });
});

describe("an unreachable ledger", () => {
  test("is named without its password", async () => {
    const url = `postgres://mdq:${postgres.password}@127.0.0.1:1/postgres`;
    const error: unknown = await openQuotaLedger(url, { connectTimeoutMs: 2000 }).catch(
      (caught: unknown) => caught,
    );
    expect(hasCode(error, "QUOTA_LEDGER_UNREACHABLE")).toBe(true);
    const message = error instanceof Error ? `${error.message} ${String(error.cause)}` : "";
    expect(message).toContain("the quota ledger postgres://127.0.0.1:1/postgres is unreachable");
    expect(message).not.toContain(postgres.password);
  });
});
