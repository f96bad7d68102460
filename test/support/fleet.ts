// What the fleet tests share: a database of its own per test in the throwaway PostgreSQL, pipelines
// that join the ledger, the requests an emulator counted against its quota, and the ledger as the
// quota command shows it.
import pg from "pg";
import { afterAll, beforeAll } from "vitest";
import { SERVICE_FROM_ENV, makeTempDir, removeDir, runCli, writePipeline } from "./cli-harness.js";
import type { RunningEmulator } from "../../src/emulator/server.js";
import type { LedgerSnapshot } from "../../src/quota-ledger/ledger-snapshot.js";
import { jobsSource } from "./jobs-pipeline.js";
import { startPostgres } from "./postgres.js";
import type { StartPostgresOptions, TestPostgres } from "./postgres.js";

let databases = 0;

/** What a fleet test file runs on: one throwaway PostgreSQL cluster and one temporary folder. */
export interface FleetFloor {
  readonly postgres: TestPostgres;
  readonly dir: string;
}

/**
 * Starts the file's PostgreSQL cluster and makes its temporary folder before its first test, and
 * removes both after its last; read `postgres` and `dir` inside tests and hooks only.
 */
export function useFleetFloor(prefix: string, options: StartPostgresOptions = {}): FleetFloor {
  let postgres: TestPostgres | undefined;
  let dir: string | undefined;
  beforeAll(async () => {
    postgres = await startPostgres(options);
    dir = await makeTempDir(prefix);
  }, 60_000);
  afterAll(async () => {
    await postgres?.close();
    if (dir !== undefined) await removeDir(dir);
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error("the fleet floor is read before its beforeAll ran");
    return value;
  };
  return {
    get postgres() {
      return started(postgres);
    },
    get dir() {
      return started(dir);
    },
  };
}

/** A fresh database in the cluster: the URL of a ledger no other test sees. */
export async function freshLedgerUrl(postgres: TestPostgres): Promise<string> {
  databases += 1;
  const name = `fleet_${process.pid}_${databases}`;
  const admin = new pg.Client({ connectionString: postgres.url });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  return postgres.url.replace(/\/postgres$/, `/${name}`);
}

export interface FleetPipelineOptions {
  name: string;
  /** Hourly slices from 2026-11-10T00:00Z. */
  hours: number;
  priority?: "high" | "normal" | "low";
  reserve?: number;
  concurrency?: number;
  /** More of `limits.quota`: standing, lease_ms, recheck_after_ms. */
  quota?: Record<string, unknown>;
  /** Days before 2026-11-10 the window starts, so that pipelines of one name differ in window. */
  startDay?: number;
  /** Records per request; 100 unless told. */
  pageSize?: number;
  /** `auto` (probed) unless told; `pit` with the fixed hourly slice plans without a probe. */
  strategy?: "auto" | "pit";
}

/** Jobs by point in time (probed, so the plan's claim counts pages) into NDJSON, sharing the ledger. */
export function writeFleetPipeline(dir: string, options: FleetPipelineOptions): Promise<string> {
  const day = String(10 - (options.startDay ?? 0)).padStart(2, "0");
  const start = `2026-11-${day}T00:00:00Z`;
  const end = new Date(Date.parse(start) + options.hours * 3_600_000).toISOString();
  return writePipeline(
    dir,
    {
      name: options.name,
      service: SERVICE_FROM_ENV,
      source: jobsSource(start, end, {
        page_size: options.pageSize ?? 100,
        strategy: options.strategy ?? "auto",
      }),
      sinks: [{ format: "ndjson", to: "${OUT}", path: "dt={date}/part-{slice}-{seq}.ndjson" }],
      limits: {
        concurrency: options.concurrency ?? 2,
        quota_reserve: options.reserve ?? 0,
        quota: {
          ledger: "${MDQ_QUOTA_LEDGER}",
          priority: options.priority ?? "normal",
          ...options.quota,
        },
      },
    },
    `${options.name}.yaml`,
  );
}

/** Requests the emulator counted against the daily quota: every operation, not tokens or downloads. */
export function quotaRequests(emulator: RunningEmulator): number {
  return Object.entries(emulator.requestCounts())
    .filter(([path]) => path !== "/oauth2/token" && !path.startsWith("/downloads"))
    .reduce((sum, [, count]) => sum + count, 0);
}

/** The ledger as `mdq-export quota --json` prints it. */
export async function ledgerAsShown(url: string): Promise<LedgerSnapshot> {
  const shown = await runCli(["quota", "--ledger", url, "--json"]);
  if (shown.code !== 0) throw new Error(`quota exited ${shown.code}: ${shown.stderr}`);
  return JSON.parse(shown.stdout) as LedgerSnapshot;
}
