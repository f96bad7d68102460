// Every example in pipelines/: validated offline with only the service variables set, and run through
// the CLI against an emulator on port 0 (the S3 example into an in-process S3 server), then verified.
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { GetObjectCommand, HeadObjectCommand, ListObjectsV2Command } from "@aws-sdk/client-s3";
import { describe, expect } from "vitest";
import type { RunningEmulator } from "../src/emulator/server.js";
import type { Manifest } from "../src/pipeline/output-state/manifest.js";
import { checkCompleteExport } from "./support/export-checks.js";
import { readNdjson, readParquet, valueAnywhere, viewColumnCounts } from "./support/read-output.js";
import { emulatorEnv, runCli } from "./support/cli-harness.js";
import type { Workspace } from "./support/cli-harness.js";
import type { TestS3Server } from "./support/s3-server.js";
import { s3ServerFixture, useEmulator } from "./support/use-emulator.js";

const DIR = join(import.meta.dirname, "..", "pipelines");

/** The examples the project promises; a file added to pipelines/ must be added here (and run below). */
const EXAMPLES = [
  "billing-per-domain.yaml",
  "demo.yaml",
  "logs-backfill-batch.yaml",
  "metrics-daily-aggs.yaml",
  "nightly-jobs-s3.yaml",
  "nightly-jobs.yaml",
  "nightly-warehouse-load.yaml",
  "serverless-logs.yaml",
  "tickets-ndjson.yaml",
];

/** What a CI job has: the service's variables (placeholders), nothing else. */
const SERVICE_ONLY_ENV = {
  MDQ_BASE_URL: "https://mdq.example.com",
  MDQ_AUTH_URL: "https://auth.example.com",
  MDQ_CLIENT_ID: "ci-validation",
  MDQ_CLIENT_SECRET: "placeholder",
};

const DAY_START = "2026-03-10T00:00:00Z";

const it = useEmulator({ density: 2 }).extend<{ s3: TestS3Server }>({ s3: s3ServerFixture() });

describe("pipelines/", () => {
  it("holds exactly the documented examples, each opening with the schema line and a comment saying what it is for", async () => {
    const files = (await readdir(DIR)).filter((file) => file.endsWith(".yaml")).sort();
    expect(files).toEqual(EXAMPLES);
    for (const file of files) {
      const lines = (await readFile(join(DIR, file), "utf8")).split("\n");
      expect(lines[0], file).toBe("# yaml-language-server: $schema=../schema/pipeline.schema.json");
      expect(lines[1], file).toMatch(/^# \S.{20,}/);
    }
  });

  it.each(EXAMPLES)("%s validates with only the service variables set (exit 0)", async (file) => {
    const result = await runCli(["validate", join(DIR, file)], { env: SERVICE_ONLY_ENV });
    expect(result.stderr.replace(/^warning: .*deprecated.*\n/m, "")).toBe("");
    expect(result.stdout).toContain(`${join(DIR, file)}: valid`);
    expect(result.code).toBe(0);
  });

  it("validate takes every example at once", async () => {
    const result = await runCli(["validate", ...EXAMPLES.map((file) => join(DIR, file))], {
      env: SERVICE_ONLY_ENV,
    });
    expect(result.code).toBe(0);
    expect(result.stdout.trim().split("\n")).toHaveLength(EXAMPLES.length);
  });
});

interface RunCase {
  file: string;
  /** Window overrides that keep the run small (and, where absolute, deterministic). */
  window: string[];
  /** Sink directories under MDQ_OUT_DIR. */
  outputs: string[];
  /** Rows the whole export must hold, from the emulator's own count of the same query. */
  rows?: (emulator: RunningEmulator) => number;
  /** What else the example promises of its output (under MDQ_OUT_DIR). */
  check?: (out: string) => Promise<void>;
}

async function dataFilesOf(dir: string): Promise<string[]> {
  const manifest = JSON.parse(await readFile(join(dir, "_manifest.json"), "utf8")) as Manifest;
  return manifest.files.map((file) => file.path);
}

const hours = (n: number): string => new Date(Date.parse(DAY_START) + n * 3_600_000).toISOString();

const RUNS: RunCase[] = [
  {
    file: "nightly-jobs.yaml",
    window: ["--start", DAY_START, "--end", hours(3)],
    outputs: ["nightly-jobs"],
    rows: (emulator) =>
      emulator.expectedCount("jobs", {
        application: "atr",
        app_type: ["ec2", "kubernetes"],
        domain: ["*"],
        start_time: DAY_START,
        end_time: hours(3),
      }),
  },
  {
    file: "nightly-warehouse-load.yaml",
    window: ["--start", DAY_START, "--end", hours(3)],
    outputs: ["warehouse/jobs"],
    rows: (emulator) =>
      emulator.expectedCount("jobs", {
        application: "atr",
        app_type: ["ec2", "kubernetes"],
        domain: ["*"],
        start_time: DAY_START,
        end_time: hours(3),
      }),
    // The schema committed beside the example is the one every file has, pinned beside the output too.
    check: async (out) => {
      const dir = join(out, "warehouse/jobs");
      const committed = await readFile(join(DIR, "nightly-warehouse-load.schema.json"), "utf8");
      expect(await readFile(join(dir, "_mdq-export", "schema.json"), "utf8")).toBe(committed);
      const names = (JSON.parse(committed) as { columns: { name: string }[] }).columns.map((c) => c.name);
      const table = await readParquet(dir, await dataFilesOf(dir));
      expect(Object.keys(table.types)).toEqual(names);
      for (const name of names) expect(name).toMatch(/^[a-z_][a-z0-9_]*$/);
    },
  },
  {
    file: "logs-backfill-batch.yaml",
    window: ["--start", "2026-03-08", "--end", "2026-03-10"],
    outputs: ["logs-backfill"],
    rows: (emulator) =>
      ["ec2", "kubernetes"].reduce(
        (sum, appType) =>
          sum +
          emulator.expectedCount("/v2/logs/batch", {
            application: "atr",
            app_type: appType,
            domain: ["*"],
            start_time: "2026-03-08T00:00:00Z",
            end_time: "2026-03-10T00:00:00Z",
          }),
        0,
      ),
  },
  {
    file: "tickets-ndjson.yaml",
    window: ["--start", DAY_START, "--end", hours(12)],
    outputs: ["tickets"],
    // Descriptions dropped, ticket numbers masked, the pipeline's name added.
    check: async (out) => {
      const dir = join(out, "tickets");
      const rows = await readNdjson(dir, await dataFilesOf(dir));
      for (const row of rows) {
        const ticket = row.ticket as Record<string, unknown>;
        expect(ticket).not.toHaveProperty("description");
        expect(String(ticket.number)).toMatch(/^\*+.{4}$/);
        expect(row.pipeline).toBe("tickets-ndjson");
      }
    },
    rows: (emulator) =>
      emulator.expectedCount("tickets", {
        application: "atr",
        app_type: ["ec2", "kubernetes"],
        domain: ["*"],
        start_time: DAY_START,
        end_time: hours(12),
        filters: [
          { terms: { "ticket.type": ["INCIDENT", "SR_TASK"] } },
          { term: { "ticket.resolved": false } },
        ],
      }),
  },
  {
    file: "metrics-daily-aggs.yaml",
    window: ["--start", DAY_START, "--end", hours(24)],
    outputs: ["metrics-daily"],
    // One row per hour and domain (three behind "*"), with mean and peak CPU.
    check: async (out) => {
      const dir = join(out, "metrics-daily");
      const table = await readParquet(dir, await dataFilesOf(dir));
      expect(table.types).toMatchObject({ per_hour: "TIMESTAMP", by_domain: "VARCHAR", mean_cpu: "DOUBLE" });
      expect(table.rows).toHaveLength(24 * 3);
      for (const row of table.rows)
        expect(row.peak_cpu as number).toBeGreaterThanOrEqual(row.mean_cpu as number);
    },
  },
  {
    file: "billing-per-domain.yaml",
    window: [],
    outputs: ["billing/parquet", "billing/ndjson"],
    rows: () => 3,
  },
  {
    file: "serverless-logs.yaml",
    window: ["--start", DAY_START, "--end", hours(2)],
    outputs: ["serverless-logs"],
    rows: (emulator) =>
      emulator.expectedCount("logs", {
        application: "eventops",
        app_type: "serverless",
        log_group: ["/aws/lambda/orders", "/aws/lambda/billing"],
        tenant: ["*"],
        stage: ["prod"],
        start_time: DAY_START,
        end_time: hours(2),
      }),
  },
];

/** Each column's non-null values in the files a sink wrote, read without the DDL; `"*"` counts the rows. */
async function exportedCounts(
  dir: string,
  files: readonly string[],
  names: readonly string[],
): Promise<Record<string, number>> {
  const rows = files.some((file) => file.endsWith(".parquet"))
    ? (await readParquet(dir, files)).rows
    : await readNdjson(dir, files);
  const counts: Record<string, number> = { "*": rows.length };
  for (const name of names)
    counts[name] = rows.filter((row) => {
      const value = files.some((file) => file.endsWith(".parquet")) ? row[name] : valueAnywhere(row, name);
      return value !== undefined && value !== null;
    }).length;
  return counts;
}

/**
 * Every dialect the sink's destination allows: DuckDB's statement executed over the files (`dir`,
 * or `--location` when the files were copied there) gives each column as many values as were
 * exported; Athena and BigQuery accept the names and the location.
 */
async function checkDdl(
  file: string,
  env: Record<string, string>,
  sink: number,
  dir: string,
  location?: string,
): Promise<void> {
  const where = `${file} sink ${sink}`;
  const schema = await runCli(["schema", file, "--sink", String(sink), "--json"], { env });
  expect(schema.code, schema.stderr).toBe(0);
  const names = (JSON.parse(schema.stdout) as { columns: { name: string }[] }).columns.map((c) => c.name);
  const ddl = (dialect: string, ...extra: string[]) =>
    runCli(["ddl", file, "--sink", String(sink), "--dialect", dialect, "--table", "t", ...extra], { env });
  const duckdb = await ddl("duckdb", ...(location === undefined ? [] : ["--location", location]));
  expect(duckdb.code, `${where}: ${duckdb.stderr}`).toBe(0);
  const files = await dataFilesOf(dir);
  expect(await viewColumnCounts(duckdb.stdout, "t", names), where).toEqual(
    await exportedCounts(dir, files, names),
  );
  const athena = await ddl("athena", "--location", "s3://warehouse/examples");
  expect(athena.stderr, where).toBe("");
  expect(athena.stdout).toMatch(/^CREATE EXTERNAL TABLE IF NOT EXISTS `t`/);
  const bigquery = await ddl("bigquery", "--location", "gs://warehouse/examples");
  expect(bigquery.stderr, where).toBe("");
  expect(bigquery.stdout).toMatch(/^CREATE OR REPLACE EXTERNAL TABLE `mdq.t`/);
}

describe("the README's pipeline", () => {
  it("yields the Athena and BigQuery DDL, offline from its pin", async ({ service, workspace }) => {
    const { emulator } = service;
    const readme = await readFile(join(DIR, "..", "README.md"), "utf8");
    const text = /## A pipeline\n\n```yaml\n([\s\S]*?)```/.exec(readme)?.[1] ?? "";
    expect(text).toContain("name: nightly-jobs");
    const file = await workspace.write("readme-pipeline.yaml", text);
    // Its pin as `schema` prints it, from a copy writing locally (the emulator has the kind).
    const local = await workspace.write(
      "readme-local.yaml",
      text.replace("to: s3://warehouse-raw/mdq/jobs", `to: ${join(workspace.dir, "readme-out")}`),
    );
    const schema = await runCli(["schema", local, "--sink", "1", "--json"], { env: emulatorEnv(emulator) });
    expect(schema.code, schema.stderr).toBe(0);
    const pin = await workspace.write("readme.schema.json", schema.stdout);
    for (const dialect of ["duckdb", "athena", "bigquery"]) {
      const ddl = await runCli(["ddl", file, "--dialect", dialect, "--pin", pin], { env: {} });
      expect(ddl.stderr, dialect).toBe("");
      expect(ddl.code, dialect).toBe(0);
      expect(ddl.stdout, dialect).toMatch(/job_state/);
    }
  });
});

describe("pipelines/ run against the emulator", () => {
  // One MDQ_OUT_DIR for all, as the README sets it: each example writes only below its own directory.
  const out = (workspace: Workspace): string => join(workspace.dir, "examples");

  it.for(RUNS)(
    "$file runs to a complete export that verify accepts, and its DDL reads it back",
    async (run, { service, workspace }) => {
      const { emulator } = service;
      const env = { ...emulatorEnv(emulator), MDQ_OUT_DIR: out(workspace) };
      const file = join(DIR, run.file);
      const result = await runCli(["run", file, ...run.window, "--log-level", "error"], { env });
      expect(result.stderr).toBe("");
      expect(result.code).toBe(0);
      for (const output of run.outputs) {
        const dir = join(out(workspace), output);
        const manifest = JSON.parse(await readFile(join(dir, "_manifest.json"), "utf8")) as Manifest;
        expect(manifest.totals.rows, output).toBeGreaterThan(0);
        if (run.rows !== undefined) expect(manifest.totals.rows, output).toBe(run.rows(emulator));
        await checkCompleteExport(dir, manifest.totals.rows);
      }
      await run.check?.(out(workspace));
      const verify = await runCli(["verify", file], { env });
      expect(verify.stdout).not.toContain("problem");
      expect(verify.code).toBe(0);
      for (const [index, output] of run.outputs.entries())
        await checkDdl(file, env, index + 1, join(out(workspace), output));
    },
  );

  it("nightly-jobs-s3.yaml runs into an S3 bucket: objects, manifest and _SUCCESS on the store; verify accepts", async ({
    service,
    workspace,
    s3,
  }) => {
    const { emulator } = service;
    s3.createBucket("mdq-e2e");
    const env = {
      ...emulatorEnv(emulator),
      MDQ_S3_BUCKET: "mdq-e2e",
      MDQ_S3_PREFIX: "nightly/jobs",
      MDQ_S3_REGION: "us-east-1",
      MDQ_S3_ENDPOINT: s3.endpoint,
      MDQ_S3_FORCE_PATH_STYLE: "true",
    };
    const file = join(DIR, "nightly-jobs-s3.yaml");
    const result = await runCli(
      ["run", file, "--start", DAY_START, "--end", hours(2), "--log-level", "error"],
      {
        env,
      },
    );
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    await s3.client.send(new HeadObjectCommand({ Bucket: "mdq-e2e", Key: "nightly/jobs/_SUCCESS" }));
    const body = await s3.client.send(
      new GetObjectCommand({ Bucket: "mdq-e2e", Key: "nightly/jobs/_manifest.json" }),
    );
    const manifest = JSON.parse(
      await (body.Body as { transformToString(): Promise<string> }).transformToString(),
    ) as Manifest;
    expect(manifest.complete).toBe(true);
    expect(manifest.totals.rows).toBe(
      emulator.expectedCount("jobs", {
        application: "atr",
        app_type: ["ec2", "kubernetes"],
        domain: ["*"],
        start_time: DAY_START,
        end_time: hours(2),
      }),
    );
    expect(manifest.files.map((f) => f.path).sort()).toEqual([
      "dt=2026-03-10/hour=00/part-20260310T000000Z-0000.parquet",
      "dt=2026-03-10/hour=01/part-20260310T010000Z-0000.parquet",
    ]);
    const verify = await runCli(["verify", file], { env });
    expect(verify.code, verify.stdout).toBe(0);
    // The DDL reads the bucket; DuckDB's is executed over a copy of the objects, named by --location.
    const copy = join(workspace.dir, "s3-copy");
    const listed = await s3.client.send(
      new ListObjectsV2Command({ Bucket: "mdq-e2e", Prefix: "nightly/jobs/" }),
    );
    for (const object of listed.Contents ?? []) {
      const key = object.Key ?? "";
      const got = await s3.client.send(new GetObjectCommand({ Bucket: "mdq-e2e", Key: key }));
      const target = join(copy, key.slice("nightly/jobs/".length));
      await mkdir(dirname(target), { recursive: true });
      await writeFile(
        target,
        await (got.Body as { transformToByteArray(): Promise<Uint8Array> }).transformToByteArray(),
      );
    }
    const own = await runCli(["ddl", file, "--dialect", "duckdb"], { env });
    expect(own.stdout).toContain("read_parquet('s3://mdq-e2e/nightly/jobs/dt=*/hour=*/part-*-*.parquet'");
    await checkDdl(file, env, 1, copy, copy);
  });

  it("demo.yaml runs on its embedded emulator into ./out/demo of the working directory", async ({
    workspace,
  }) => {
    const cwd = process.cwd();
    const demoDir = join(workspace.dir, "demo");
    await mkdir(demoDir);
    // Sink paths are relative to the process's working directory.
    process.chdir(demoDir);
    try {
      const file = join(DIR, "demo.yaml");
      const result = await runCli([
        "run",
        file,
        "--start",
        "now-1d/d",
        "--end",
        "now-1d/d+2h",
        "--log-level",
        "error",
      ]);
      expect(result.stderr).toBe("");
      expect(result.code).toBe(0);
      expect(result.stdout).toContain("out/demo");
      const parquet = JSON.parse(
        await readFile(join(demoDir, "out/demo/parquet/_manifest.json"), "utf8"),
      ) as Manifest;
      const ndjson = JSON.parse(
        await readFile(join(demoDir, "out/demo/ndjson/_manifest.json"), "utf8"),
      ) as Manifest;
      expect(parquet.totals.rows).toBeGreaterThan(0);
      expect(ndjson.totals.rows).toBe(parquet.totals.rows);
      expect(parquet.slices).toHaveLength(2);
      await checkCompleteExport(join(demoDir, "out/demo/parquet"), parquet.totals.rows);
      await checkCompleteExport(join(demoDir, "out/demo/ndjson"), ndjson.totals.rows);
      const verify = await runCli(["verify", file]);
      expect(verify.code, verify.stdout).toBe(0);
      // Relative destinations are made absolute in the DDL, so it reads them from any directory.
      const duckdb = await runCli(["ddl", file, "--dialect", "duckdb"]);
      expect(duckdb.stdout).toContain(`read_parquet('${join(process.cwd(), "out/demo/parquet")}/dt=*/`);
      await checkDdl(file, {}, 1, join(demoDir, "out/demo/parquet"));
      await checkDdl(file, {}, 2, join(demoDir, "out/demo/ndjson"));
    } finally {
      process.chdir(cwd);
    }
  });
});
