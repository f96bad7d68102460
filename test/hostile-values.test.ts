// Issue 29, the service's values as a warehouse reads them, in every encoder mode: a rewriting proxy
// in front of the emulator sends int64 values past 2^53 and at int64's ends, hits that name `_source`
// twice (once spelled with an escape), a `_source` that repeats a key, and a lone surrogate escape;
// and int32 values at int32's ends, then (regression: they were truncated or nulled) past them.
// The files are read back by DuckDB (read_parquet, read_json: it refuses a file with a duplicate key
// or a lone surrogate) and each NDJSON line by JSON.parse; every mode must give the same view.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { describe, expect } from "vitest";
import { SERVICE_FROM_ENV, dataFiles, listTree, runCli, writePipeline } from "./support/cli-harness.js";
import type { Row } from "./support/cli-harness.js";
import { startGateProxy } from "./support/gate-proxy.js";
import type { GateProxy } from "./support/gate-proxy.js";
import { jobsSource } from "./support/jobs-pipeline.js";
import { useEmulator } from "./support/use-emulator.js";

const START = "2026-03-01T00:00:00Z";
const END = "2026-03-01T02:00:00Z";
const LONGS = ["9007199254740993", "-9223372036854775808", "9223372036854775807"];

/** The digits the proxy sends for a `bytes_sent` the emulator made (`value`, below 10,000). */
const sentDigits = (value: number): string => LONGS[value % 4] ?? String(value);

/** What the proxy sends for an `attempts` (an `integer` field): int32's ends, or `tooBig` when set. */
const INTS = ["2147483647", "-2147483648", "5.0"];
const sent = { tooBig: undefined as string | undefined };
const sentInt = (value: number): string =>
  sent.tooBig !== undefined && value % 5 === 0 ? sent.tooBig : (INTS[value % 4] ?? String(value));

/** Rewrites the hits of every jobs page (see the file's first comment). */
function rewriteJobs(path: string, body: Buffer): Buffer {
  if (path !== "/v3/jobs/query") return body;
  let hit = 0;
  const text = body
    .toString("utf8")
    .replace(/"bytes_sent":(\d+)/g, (_match, digits: string) => `"bytes_sent":${sentDigits(Number(digits))}`)
    .replace(/"attempts":(\d+)/g, (_match, digits: string) => `"attempts":${sentInt(Number(digits))}`)
    .replace(/"_source":\{/g, () => {
      hit += 1;
      // The last `_source` is the hit's, as JSON.parse reads it; the first is a decoy.
      if (hit % 4 === 1) return '"_source":{"decoy":true},"_sourc\\u0065":{';
      if (hit % 4 === 2) return '"_source":{"bytes_sent":1,"job":{"name":"decoy"},';
      if (hit % 4 === 3) return '"_source":{"note":"x\\ud800y",';
      return '"_source":{';
    });
  return Buffer.from(text);
}

const it = useEmulator({ seed: 29, density: 40 }).extend<{ proxy: GateProxy }>({
  proxy: [
    async ({ service }, use) => {
      service.emulator.changeFields("jobs", { add: { bytes_sent: "long", attempts: "integer" } });
      const proxy = await startGateProxy(service.emulator.url, { rewrite: rewriteJobs });
      try {
        await use(proxy);
      } finally {
        await proxy.close();
      }
    },
    { scope: "file" },
  ],
});

/** `sql` over DuckDB, rows as JavaScript values (BIGINT as bigint). */
async function query(sql: string): Promise<Row[]> {
  const instance = await DuckDBInstance.create(":memory:");
  const connection = await instance.connect();
  try {
    return (await connection.runAndReadAll(sql)).getRowObjectsJS() as Row[];
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

interface View {
  /** `_id` → bytes_sent's digits, job.name and note, as the warehouse reads them. */
  rows: Map<string, string>;
  /** The rows that hold a note (whose lone surrogate became U+FFFD). */
  notes: number;
}

const files = async (out: string, ext: string): Promise<string> =>
  (await listTree(out))
    .filter((path) => dataFiles([path]).length === 1 && path.endsWith(ext))
    .map((path) => `'${join(out, path)}'`)
    .join(", ");

async function parquetView(out: string): Promise<View> {
  const rows = await query(
    `SELECT _id, bytes_sent::VARCHAR AS n, "job.name" AS name, attempts FROM read_parquet([${await files(out, ".parquet")}])`,
  );
  return {
    rows: new Map(
      rows.map((row) => [String(row._id), `${String(row.n)}|${String(row.name)}|${String(row.attempts)}`]),
    ),
    notes: 0,
  };
}

async function ndjsonView(out: string): Promise<View> {
  const list = await files(out, ".ndjson");
  // Every line is one JSON object on its own, and holds the digits as sent.
  for (const path of list.split(", ")) {
    const text = await readFile(path.slice(1, -1), "utf8");
    for (const line of text.trimEnd().split("\n")) {
      expect(typeof JSON.parse(line), line).toBe("object");
      expect(line).not.toMatch(/\\ud[89a-f]/i);
      expect(line).not.toContain("decoy");
    }
  }
  const rows = await query(
    `SELECT _id, bytes_sent::VARCHAR AS n, job.name AS name, note, attempts FROM read_json([${list}], format = 'newline_delimited', columns = {_id: 'VARCHAR', bytes_sent: 'BIGINT', job: 'STRUCT(name VARCHAR)', note: 'VARCHAR', attempts: 'INTEGER'})`,
  );
  for (const row of rows) if (row.note !== null) expect(row.note).toBe("x\ufffdy");
  expect(rows.filter((row) => row.note !== null).length).toBeGreaterThan(5);
  return {
    rows: new Map(
      rows.map((row) => [String(row._id), `${String(row.n)}|${String(row.name)}|${String(row.attempts)}`]),
    ),
    notes: rows.filter((row) => row.note !== null).length,
  };
}

const MODES: readonly { name: string; sinks: string[]; transforms?: boolean }[] = [
  { name: "ndjson spliced", sinks: ["ndjson"] },
  { name: "parquet from the bytes", sinks: ["parquet"] },
  { name: "both formats, parsed", sinks: ["ndjson", "parquet"] },
  { name: "both formats through a transform", sinks: ["ndjson", "parquet"], transforms: true },
];

describe("values a hostile service sends, in every encoder mode", () => {
  it("int64 exact, the last _source, one key and U+FFFD: the same view in every mode", async ({
    service,
    workspace,
    proxy,
  }) => {
    const env = { ...service.env, MDQ_BASE_URL: proxy.url };
    const views: Map<string, string>[] = [];
    for (const mode of MODES) {
      const dir = await workspace.folder(mode.name.replaceAll(" ", "-"));
      const file = await writePipeline(dir, {
        name: "hostile-values",
        service: SERVICE_FROM_ENV,
        source: jobsSource(START, END, { page_size: 50 }),
        ...(mode.transforms === true ? { transforms: [{ drop: { fields: ["job.id"] } }] } : {}),
        sinks: mode.sinks.map((format) => ({ format, to: join(dir, format) })),
        limits: { concurrency: 1 },
      });
      const result = await runCli(["run", file, "--log-level", "debug"], { env });
      expect(result.code, `${mode.name}: ${result.stderr}`).toBe(0);
      for (const format of mode.sinks) {
        const view =
          format === "parquet" ? await parquetView(join(dir, format)) : await ndjsonView(join(dir, format));
        views.push(view.rows);
        // Each lone surrogate written as U+FFFD is counted per file: one per note in NDJSON, none in
        // Parquet, which has no `note` column.
        const manifest = JSON.parse(await readFile(join(dir, format, "_manifest.json"), "utf8")) as {
          files: { replaced_surrogates?: number }[];
        };
        const replaced = manifest.files.reduce((sum, file) => sum + (file.replaced_surrogates ?? 0), 0);
        expect(replaced, mode.name).toBe(format === "parquet" ? 0 : view.notes);
        // And the run's summary says so, per destination.
        if (format === "ndjson")
          expect(result.stdout).toContain(`${view.notes} lone surrogates written as U+FFFD`);
      }
    }
    const [first] = views;
    expect(first?.size).toBeGreaterThan(40);
    const digits = [...(first?.values() ?? [])].map((value) => value.split("|")[0]);
    for (const long of LONGS) expect(digits).toContain(long);
    const ints = [...(first?.values() ?? [])].map((value) => value.split("|")[2]);
    for (const int of ["2147483647", "-2147483648", "5"]) expect(ints).toContain(int);
    expect([...(first?.values() ?? [])].some((value) => value.endsWith("|decoy"))).toBe(false);
    for (const view of views.slice(1)) expect(view).toEqual(first);
  });
});

describe("an int32 value no int32 holds, in every Parquet encoder mode", () => {
  it("fails the slice with SINK_VALUE_NOT_INT32 naming the column, never truncated or wrapped", async ({
    service,
    workspace,
    proxy,
  }) => {
    const env = { ...service.env, MDQ_BASE_URL: proxy.url };
    try {
      for (const tooBig of ["2147483648", "1.5"]) {
        sent.tooBig = tooBig;
        for (const mode of MODES.filter((each) => each.sinks.includes("parquet"))) {
          const dir = await workspace.folder(`int32-${tooBig}-${mode.name.replaceAll(" ", "-")}`);
          const file = await writePipeline(dir, {
            name: "hostile-int32",
            service: SERVICE_FROM_ENV,
            source: jobsSource(START, END, { page_size: 50 }),
            ...(mode.transforms === true ? { transforms: [{ drop: { fields: ["job.id"] } }] } : {}),
            sinks: mode.sinks.map((format) => ({ format, to: join(dir, format) })),
            limits: { concurrency: 1 },
          });
          const result = await runCli(["run", file, "--debug"], { env });
          expect(result.code, `${mode.name}: ${result.stderr}`).toBe(1);
          expect(result.stderr).toContain("SINK_VALUE_NOT_INT32");
          expect(result.stderr).toContain(`[SINK_VALUE_NOT_INT32]: column "attempts"`);
          expect(result.stderr).toContain(`${tooBig} is not an int32`);
          for (const format of mode.sinks) expect(dataFiles(await listTree(join(dir, format)))).toEqual([]);
        }
      }
    } finally {
      sent.tooBig = undefined;
    }
  });
});
