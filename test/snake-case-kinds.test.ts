// `column_names: snake_case` runs for every kind, app type and API version as written, with no rename
// (regression: logs were refused because `@timestamp` and the application's `timestamp` both became
// `timestamp`, the v2 logs of atr with both app types included). Each case is validated, then run into
// Parquet and NDJSON under snake_case beside NDJSON as_is (the records as the service holds them, which
// the logs case also checks against the emulator's hits); every column of every row is compared.
import { join } from "node:path";
import { describe, expect } from "vitest";
import { snakeCaseName } from "../src/warehouse/column-names.js";
import { byId, checkCompleteExport } from "./support/export-checks.js";
import { hitRecord } from "./support/expected-rows.js";
import { asColumnValue, collect, listDataFiles, readNdjson, readParquet } from "./support/read-output.js";
import { REMOTE_SERVICE_YAML, runCli } from "./support/cli-harness.js";
import { useEmulator } from "./support/use-emulator.js";

const it = useEmulator({ density: 2 });

const START = "2026-03-10T00:00:00.000Z";
const END = "2026-03-10T02:00:00.000Z";
const WINDOW = `window: { start: "${START}", end: "${END}", slice: 1h }`;
const DOMAINS = `domain: [alpha.example, bravo.example]`;

/** The names the kinds give their own fields under snake_case, written out here apart from the code. */
const KIND_NAMES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  logs: { timestamp: "app_timestamp" },
};

interface Case {
  kind: string;
  source: string;
  /** The field that tells the records apart (`_id`; billing's summaries have one per domain). */
  key?: string;
  /** The emulator's hits for the window, where the case checks the records against them too. */
  hits?: { target: "/v2/logs/scroll"; bodies: Record<string, unknown>[] };
}

const CASES: Readonly<Record<string, Case>> = {
  "logs v2 atr ec2+kubernetes": {
    kind: "logs",
    source: `application: atr\n  app_type: [ec2, kubernetes]\n  ${DOMAINS}\n  ${WINDOW}\n  strategy: scroll`,
    hits: {
      target: "/v2/logs/scroll",
      bodies: ["ec2", "kubernetes"].map((appType) => ({
        application: "atr",
        app_type: appType,
        domain: ["alpha.example", "bravo.example"],
        start_time: START,
        end_time: END,
      })),
    },
  },
  "logs v2 klewer ec2, batch": {
    kind: "logs",
    source: `application: klewer\n  app_type: [ec2]\n  ${DOMAINS}\n  ${WINDOW}\n  strategy: batch`,
  },
  "logs v2 quasar kubernetes": {
    kind: "logs",
    source: `application: quasar\n  app_type: [kubernetes]\n  ${DOMAINS}\n  ${WINDOW}\n  strategy: scroll`,
  },
  "logs v2 eventops serverless": {
    kind: "logs",
    source: `application: eventops\n  app_type: [serverless]\n  log_group: [/aws/lambda/orders]\n  tenant: ["*"]\n  stage: [prod]\n  ${WINDOW}\n  strategy: scroll`,
  },
  "logs v1 atr, ec2 and caas": {
    kind: "logs",
    source: `api: v1\n  application: atr\n  domain: [alpha.example]\n  window: { start: now-2h/h }\n  strategy: scroll`,
  },
  "logs v1 atr caas, batch": {
    kind: "logs",
    source: `api: v1\n  application: atr\n  app_type: caas\n  domain: [alpha.example]\n  window: { start: now-2h/h }\n  strategy: batch`,
  },
  "logs v1 eventops": {
    kind: "logs",
    source: `api: v1\n  application: eventops\n  log_group: [/aws/lambda/orders]\n  tenant: [globex]\n  stage: [prod]\n  window: { start: now-2h/h }\n  strategy: scroll`,
  },
  "workloads ec2+kubernetes": {
    kind: "workloads",
    source: `application: atr\n  app_type: [ec2, kubernetes]\n  ${DOMAINS}\n  ${WINDOW}\n  strategy: scroll`,
  },
  "jobs ec2+kubernetes": {
    kind: "jobs",
    source: `application: atr\n  app_type: [ec2, kubernetes]\n  ${DOMAINS}\n  ${WINDOW}`,
  },
  "tickets ec2": {
    kind: "tickets",
    source: `application: atr\n  app_type: [ec2]\n  ${DOMAINS}\n  ${WINDOW}`,
  },
  "metrics ec2+kubernetes": {
    kind: "metrics",
    source: `application: atr\n  app_type: [ec2, kubernetes]\n  ${DOMAINS}\n  ${WINDOW}`,
  },
  billing: {
    kind: "billing",
    key: "domain",
    source: `domain: [alpha.example, bravo.example]\n  window: { start: now-2d/d }`,
  },
};

/** Rows by the value of `key`, each once. */
function keyed(rows: readonly Record<string, unknown>[], key: string): Map<string, Record<string, unknown>> {
  const map = new Map(rows.map((row) => [String(row[key]), row]));
  expect(map.size, `rows with one ${key}`).toBe(rows.length);
  return map;
}

/** Every dotted leaf path of a record, with its value (`atr.domain_name`). */
function leaves(record: Readonly<Record<string, unknown>>, at = ""): [string, unknown][] {
  return Object.entries(record).flatMap(([key, value]): [string, unknown][] =>
    value !== null && typeof value === "object" && !Array.isArray(value) && Object.keys(value).length > 0
      ? leaves(value as Record<string, unknown>, `${at}${key}.`)
      : [[`${at}${key}`, value]],
  );
}

describe("column_names: snake_case, every kind as written", () => {
  for (const [name, { kind, source, key = "_id", hits }] of Object.entries(CASES))
    it(`${name}: valid, runs, every value under its snake_case column`, async ({ service, workspace }) => {
      const slug = name.replace(/[^a-z0-9]+/g, "-");
      const out = join(workspace.dir, slug);
      const file = await workspace.write(
        `${slug}.yaml`,
        `name: snake-${slug}
${REMOTE_SERVICE_YAML}
source:
  kind: ${kind}
  ${source}
sinks:
  - format: parquet
    to: ${out}/parquet
    column_names: snake_case
  - format: ndjson
    to: ${out}/snake
    column_names: snake_case
  - format: ndjson
    to: ${out}/records
`,
      );
      const validate = await runCli(["validate", file], { env: service.env });
      expect(validate.code, validate.stderr).toBe(0);
      const run = await runCli(["run", file, "--log-level", "error"], { env: service.env });
      expect(run.code, run.stderr).toBe(0);

      const records = await readNdjson(join(out, "records"), await listDataFiles(join(out, "records")));
      await checkCompleteExport(join(out, "records"), records.length);
      expect(records.length).toBeGreaterThan(0);
      if (hits !== undefined) {
        const expected = [];
        for (const body of hits.bodies)
          expected.push(...(await collect(service.emulator.expectedHits(hits.target, body))));
        expect(byId(records)).toEqual(byId(expected.map(hitRecord)));
      }
      const own = KIND_NAMES[kind] ?? {};
      const columnOf = (field: string): string => own[field] ?? snakeCaseName(field);

      const parquet = await checkCompleteExport(join(out, "parquet"), records.length);
      const table = await readParquet(join(out, "parquet"), parquet.files);
      const columns = Object.keys(table.types);
      expect(new Set(columns).size).toBe(columns.length);
      for (const column of columns) expect(column).toMatch(/^[a-z_][a-z0-9_]*$/);
      const snake = keyed(
        await readNdjson(
          join(out, "snake"),
          (await checkCompleteExport(join(out, "snake"), records.length)).files,
        ),
        columnOf(key),
      );
      const rows = keyed(table.rows, columnOf(key));
      for (const record of records) {
        const byColumn = new Map(leaves(record).map(([field, value]) => [columnOf(field), value]));
        for (const column of byColumn.keys())
          expect(columns, `${kind}: the column of a field`).toContain(column);
        const id = String(record[key]);
        const expectedRow = Object.fromEntries(
          columns.map((column) => [column, asColumnValue(byColumn.get(column), table.types[column] ?? "")]),
        );
        expect(rows.get(id)).toEqual(expectedRow);
        expect(snake.get(id)).toEqual(
          Object.fromEntries(columns.map((column) => [column, byColumn.get(column) ?? null])),
        );
      }
    });
});
