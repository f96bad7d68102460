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
  /** The kind's names this case expects, where not `KIND_NAMES`'s. */
  names?: Readonly<Record<string, string>>;
  /** The field that tells the records apart (`_id`; billing's summaries have one per domain). */
  key?: string;
  /** The emulator's hits for the window, where the case checks the records against them too. */
  hits?: { target: "/v2/logs/scroll"; bodies: Record<string, unknown>[] };
}

const BOTH = ["ec2", "kubernetes"];
const APP_TYPES = [["ec2"], ["kubernetes"], BOTH];
const list = (values: readonly string[]): string => `[${values.join(", ")}]`;

/** A domain-scoped source of the window: application, app types, and the strategy where it is chosen. */
function scoped(application: string, appTypes: readonly string[], strategy?: string): string {
  const more = strategy === undefined ? "" : `\n  strategy: ${strategy}`;
  return `application: ${application}\n  app_type: ${list(appTypes)}\n  ${DOMAINS}\n  ${WINDOW}${more}`;
}

const V1 = "api: v1\n  window: { start: now-2h/h }";
const CASES: Readonly<Record<string, Case>> = {
  // Every v2 application and app type of logs, one by batch; the first also against the hits.
  ...Object.fromEntries(
    ["atr", "klewer", "quasar"].flatMap((application) =>
      APP_TYPES.map((appTypes): [string, Case] => [
        `logs v2 ${application} ${appTypes.join("+")}`,
        {
          kind: "logs",
          source: scoped(application, appTypes, application === "klewer" ? "batch" : "scroll"),
        },
      ]),
    ),
  ),
  "logs v2 atr ec2+kubernetes, against the hits": {
    kind: "logs",
    source: scoped("atr", BOTH, "scroll"),
    hits: {
      target: "/v2/logs/scroll",
      bodies: BOTH.map((appType) => ({
        application: "atr",
        app_type: appType,
        domain: ["alpha.example", "bravo.example"],
        start_time: START,
        end_time: END,
      })),
    },
  },
  // Where no other column takes `timestamp`, the application's field keeps its plain name.
  "logs v2 atr ec2, @timestamp renamed": {
    kind: "logs",
    source: `${scoped("atr", ["ec2"], "scroll")}\ntransforms:\n  - rename: { "@timestamp": event_time }`,
    names: {},
  },
  "logs v2 eventops serverless": {
    kind: "logs",
    source: `application: eventops\n  app_type: [serverless]\n  log_group: [/aws/lambda/orders]\n  tenant: ["*"]\n  stage: [prod]\n  ${WINDOW}\n  strategy: scroll`,
  },
  // v1: ec2, caas, and neither (both of them), one by batch.
  ...Object.fromEntries(
    ["atr", "klewer", "quasar"].flatMap((application) =>
      ["ec2", "caas", undefined].map((appType): [string, Case] => [
        `logs v1 ${application} ${appType ?? "ec2+caas"}`,
        {
          kind: "logs",
          source: `${V1}\n  application: ${application}${appType === undefined ? "" : `\n  app_type: ${appType}`}\n  domain: [alpha.example]\n  strategy: ${appType === "caas" ? "batch" : "scroll"}`,
        },
      ]),
    ),
  ),
  "logs v1 eventops": {
    kind: "logs",
    source: `${V1}\n  application: eventops\n  log_group: [/aws/lambda/orders]\n  tenant: [globex]\n  stage: [prod]\n  strategy: scroll`,
  },
  ...Object.fromEntries(
    ["workloads", "jobs", "tickets", "metrics"].flatMap((kind) =>
      APP_TYPES.map((appTypes): [string, Case] => [
        `${kind} ${appTypes.join("+")}`,
        { kind, source: scoped("atr", appTypes, kind === "workloads" ? "scroll" : undefined) },
      ]),
    ),
  ),
  "metrics klewer ec2+kubernetes": { kind: "metrics", source: scoped("klewer", BOTH) },
  "metrics quasar ec2+kubernetes": { kind: "metrics", source: scoped("quasar", BOTH) },
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
  for (const [name, { kind, source, names, key = "_id", hits }] of Object.entries(CASES))
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
      const own = names ?? KIND_NAMES[kind] ?? {};
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
