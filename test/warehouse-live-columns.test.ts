// Columns are checked on the service's live mappings, not only offline against the kind's field
// table: the emulator changes its mappings under the test (a field that snake_case gives the name of
// another, one listed twice with two types (one column that holds both), names no JavaScript object may be keyed by, hostile
// lengths and counts, control characters), and every run either writes each field in a column of its
// own or stops before anything is written or pinned.
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect } from "vitest";
import type { RunningEmulator } from "../src/emulator/server.js";
import { listAllFiles, listDataFiles, readParquet } from "./support/read-output.js";
import { kubernetesJobsYaml } from "./support/jobs-pipeline.js";
import { emulatorEnv, expectedRows, runCli } from "./support/cli-harness.js";
import type { Workspace } from "./support/cli-harness.js";
import { fieldsAsGenerated, useEmulator } from "./support/use-emulator.js";

const it = useEmulator({ density: 3 }).extend<{ generatedFields: void }>({
  generatedFields: fieldsAsGenerated("jobs"),
});
let runs = 0;

const START = "2026-03-10T00:00:00Z";
const MIDDLE = "2026-03-10T02:00:00Z";
const END = "2026-03-10T04:00:00Z";
const FIRST = ["--start", START, "--end", MIDDLE];
const SECOND = ["--start", MIDDLE, "--end", END];

async function pipeline(workspace: Workspace, sinkLines: string): Promise<{ file: string; out: string }> {
  const out = join(workspace.dir, `out-${++runs}`);
  const file = await workspace.write(
    `live-${runs}.yaml`,
    kubernetesJobsYaml(
      "live-columns",
      `  - format: parquet
    to: ${out}
    path: "dt={date}/hour={hour}/part-{slice}-{seq}.parquet"
${sinkLines}`,
    ),
  );
  return { file, out };
}

const PIN = ["_mdq-export", "schema.json"];

async function pinText(out: string): Promise<string> {
  return readFile(join(out, ...PIN), "utf8");
}

/** The records of the window as the emulator holds them, by `_id`. */
async function truth(
  emulator: RunningEmulator,
  start: string,
  end: string,
): Promise<Map<string, Record<string, unknown>>> {
  return expectedRows(emulator, "/v3/jobs/query", [
    { application: "atr", app_type: ["kubernetes"], domain: ["*"], start_time: start, end_time: end },
  ]);
}

describe("two fields that become one column at run time", () => {
  it("job_state beside job.state under snake_case: the run stops before writing or pinning, naming both", async ({
    service,
    workspace,
  }) => {
    const { emulator } = service;
    const { file, out } = await pipeline(workspace, "    column_names: snake_case\n");
    // validate knows only the kind's own fields: the clash exists only in the live mappings.
    expect((await runCli(["validate", file], { env: emulatorEnv(emulator) })).code).toBe(0);
    emulator.changeFields("jobs", { add: { job_state: "keyword" } });
    const result = await runCli(["run", file, ...FIRST], { env: emulatorEnv(emulator) });
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toContain(
      'column_names: snake_case turns both "job.state" and "job_state" into "job_state"; rename one of them with a transform (rename: { "job_state": <new name> }), or give one its own column with column_name_overrides: { "job_state": <name> }',
    );
    expect(result.stderr).toContain("nothing was written");
    expect(await listAllFiles(out).catch(() => [])).not.toContainEqual(PIN.join("/"));
    expect(await listDataFiles(out).catch(() => [])).toEqual([]);
    // schema and plan say the same before anything runs.
    const schema = await runCli(["schema", file], { env: emulatorEnv(emulator) });
    expect(schema.code).toBe(1);
    expect(schema.stderr).toContain('turns both "job.state" and "job_state" into "job_state"');
  });

  it("@_id after a first run: the second run stops, the pin and the files stay as they were", async ({
    service,
    workspace,
  }) => {
    const { emulator } = service;
    const { file, out } = await pipeline(workspace, "    column_names: snake_case\n");
    const env = emulatorEnv(emulator);
    const first = await runCli(["run", file, ...FIRST], { env });
    expect(first.code, first.stderr).toBe(0);
    const pinBefore = await pinText(out);
    const filesBefore = await listDataFiles(out);
    emulator.changeFields("jobs", { add: { "@_id": "keyword" } });
    const second = await runCli(["run", file, ...SECOND], { env });
    expect(second.code, second.stderr).toBe(1);
    expect(second.stderr).toContain('turns both "_id" and "@_id" into "_id"');
    expect(await pinText(out)).toBe(pinBefore);
    expect(await listDataFiles(out)).toEqual(filesBefore);
  });

  it("a field the mappings list twice with two types under as_is: one column that holds both, neither type winning", async ({
    service,
    workspace,
  }) => {
    const { emulator } = service;
    const { file, out } = await pipeline(workspace, "");
    emulator.changeFields("jobs", { mappings: [{ name: "job.state", type: "long" }] });
    const result = await runCli(["run", file, ...FIRST], { env: emulatorEnv(emulator) });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(
      '"field":"job.state","mapping_types":["keyword","long"],"column_type":"string"',
    );
    const table = await readParquet(out, await listDataFiles(out));
    expect(table.types).toMatchObject({ "job.state": "VARCHAR" });
    const expected = await truth(emulator, START, MIDDLE);
    expect(table.rows).toHaveLength(expected.size);
    for (const row of table.rows) {
      const record = expected.get(row["_id"] as string);
      expect(row["job.state"]).toBe((record?.["job"] as Record<string, unknown>)["state"]);
    }
  });

  it("column_name_overrides gives one of them its own column: each holds its own field's values", async ({
    service,
    workspace,
  }) => {
    const { emulator } = service;
    const { file, out } = await pipeline(
      workspace,
      "    column_names: snake_case\n    column_name_overrides: { job_state: job_state_field }\n",
    );
    emulator.changeFields("jobs", { add: { job_state: "keyword" } });
    const result = await runCli(["run", file, ...FIRST], { env: emulatorEnv(emulator) });
    expect(result.code, result.stderr).toBe(0);
    const table = await readParquet(out, await listDataFiles(out));
    expect(table.types).toMatchObject({ job_state: "VARCHAR", job_state_field: "VARCHAR" });
    const expected = await truth(emulator, START, MIDDLE);
    expect(table.rows).toHaveLength(expected.size);
    for (const row of table.rows) {
      const record = expected.get(row["_id"] as string);
      expect(row["job_state"]).toBe((record?.["job"] as Record<string, unknown>)["state"]);
      expect(row["job_state_field"]).toBe(record?.["job_state"]);
      expect(row["job_state_field"]).not.toBe(row["job_state"]);
    }
  });
});

describe("a transform over a field only the live mappings have", () => {
  it("add: { job_state } when the service starts mapping job_state: stopped, not overwritten", async ({
    service,
    workspace,
  }) => {
    const { emulator } = service;
    const out = join(workspace.dir, `out-${++runs}`);
    const yaml = kubernetesJobsYaml(
      "live-columns",
      `  - format: parquet
    to: ${out}
`,
    ).replace("sinks:\n", "transforms:\n  - add: { job_state: { value: constant } }\nsinks:\n");
    const file = await workspace.write(`live-${runs}.yaml`, yaml);
    const env = emulatorEnv(emulator);
    expect((await runCli(["validate", file], { env })).code).toBe(0);
    emulator.changeFields("jobs", { add: { job_state: "keyword" } });
    const result = await runCli(["run", file, ...FIRST], { env });
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toContain(
      'transforms[0].add.job_state: field "job_state" already exists; drop or rename it first (the service\'s mappings have it now); nothing was written',
    );
    expect(await listDataFiles(out).catch(() => [])).toEqual([]);
  });
});

describe("names that JavaScript objects treat specially", () => {
  it("a field named __proto__ and a mapping type named constructor are plain names", async ({
    service,
    workspace,
  }) => {
    const { emulator } = service;
    const { file, out } = await pipeline(workspace, "    column_names: snake_case\n");
    emulator.changeFields("jobs", {
      add: JSON.parse('{"__proto__":"keyword"}') as Record<string, "keyword">,
      mappings: [{ name: "mapped_only", type: "constructor" }],
    });
    const result = await runCli(["run", file, ...FIRST], { env: emulatorEnv(emulator) });
    expect(result.code, result.stderr).toBe(0);
    const table = await readParquet(out, await listDataFiles(out));
    expect(table.types).toMatchObject({ __proto: "VARCHAR", mapped_only: "VARCHAR" });
    const expected = await truth(emulator, START, MIDDLE);
    expect(table.rows).toHaveLength(expected.size);
    for (const row of table.rows) {
      const record = expected.get(row["_id"] as string) ?? {};
      expect(row["__proto"]).toBe(Object.getOwnPropertyDescriptor(record, "__proto__")?.value);
      expect(row["__proto"]).toMatch(/^__proto__-\d+$/);
      expect(row["mapped_only"]).toBeNull();
    }
  });
});

describe("names from the service are bounded", () => {
  it("a 400,000-character field name stops the run at once, naming the field's length and the setting", async ({
    service,
    workspace,
  }) => {
    const { emulator } = service;
    const { file, out } = await pipeline(workspace, "    column_names: snake_case\n");
    emulator.changeFields("jobs", { mappings: [{ name: `A${"B".repeat(399_999)}`, type: "keyword" }] });
    const started = performance.now();
    const result = await runCli(["run", file, ...FIRST], { env: emulatorEnv(emulator) });
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(result.code, result.stderr.slice(0, 2000)).toBe(1);
    expect(result.stderr).toContain(
      "has a name of 400000 characters, more than schema.max_name_chars (1024); leave it out with source.fields, select or drop, or raise schema.max_name_chars",
    );
    // The name is shown cut, not whole.
    expect(result.stderr.length).toBeLessThan(10_000);
    expect(await listDataFiles(out).catch(() => [])).toEqual([]);
  });

  it("100,000 mapped fields stop the run before anything is written, naming schema.max_columns", async ({
    service,
    workspace,
  }) => {
    const { emulator } = service;
    const { file, out } = await pipeline(workspace, "");
    emulator.changeFields("jobs", {
      mappings: Array.from({ length: 100_000 }, (_, index) => ({ name: `extra.f${index}`, type: "keyword" })),
    });
    const result = await runCli(["run", file, ...FIRST], { env: emulatorEnv(emulator) });
    expect(result.code, result.stderr.slice(0, 2000)).toBe(1);
    expect(result.stderr).toMatch(/: 1000\d\d columns, more than schema\.max_columns \(2000\)/);
    expect(await listDataFiles(out).catch(() => [])).toEqual([]);
    expect(await listAllFiles(out).catch(() => [])).not.toContainEqual(PIN.join("/"));
  });

  it("a thousand new fields are one drift line with counts, not a thousand", async ({
    service,
    workspace,
  }) => {
    const { emulator } = service;
    const { file, out } = await pipeline(workspace, "    column_names: snake_case\n");
    const env = emulatorEnv(emulator);
    expect((await runCli(["run", file, ...FIRST], { env })).code).toBe(0);
    emulator.changeFields("jobs", {
      mappings: Array.from({ length: 1000 }, (_, index) => ({ name: `extra.f${index}`, type: "keyword" })),
    });
    const second = await runCli(["run", file, ...SECOND], { env });
    expect(second.code, second.stderr.slice(0, 2000)).toBe(0);
    const drift = second.stderr.split("\n").filter((line) => line.includes("Schema drift"));
    expect(drift).toHaveLength(1);
    const line = JSON.parse(drift[0] ?? "{}") as Record<string, unknown>;
    expect(line).toMatchObject({ added: 1000, removed: 0, msg: "Schema drift: 1000 new field(s) added." });
    expect(line["changes"]).toHaveLength(20);
    expect(line["more"]).toBe(980);
    const pinned = (JSON.parse(await pinText(out)) as { columns: unknown[] }).columns;
    expect(pinned.length).toBeGreaterThan(1000);
  });

  it("control characters in a name are shown escaped, and refused as a column name as_is", async ({
    service,
    workspace,
  }) => {
    const { emulator } = service;
    const evil = "evil\u001b[2J\u0000name\r";
    const snake = await pipeline(workspace, "    column_names: snake_case\n");
    emulator.changeFields("jobs", { mappings: [{ name: evil, type: "keyword" }] });
    const env = emulatorEnv(emulator);
    const schema = await runCli(["schema", snake.file], { env });
    expect(schema.code, schema.stderr).toBe(0);
    expect(schema.stdout).toContain("evil_2_j_name");
    expect(schema.stdout).toContain("evil\\u001b[2J\\u0000name\\r");
    const fields = await runCli(["fields", snake.file], { env });
    expect(fields.code, fields.stderr).toBe(0);
    for (const text of [schema.stdout, fields.stdout, schema.stderr, fields.stderr])
      // eslint-disable-next-line no-control-regex -- no control character may reach the terminal
      expect(text.replaceAll("\n", "")).not.toMatch(/[\u0000-\u001f]/);
    const asIs = await pipeline(workspace, "");
    const run = await runCli(["run", asIs.file, ...FIRST], { env });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('the column name "evil\\u001b[2J\\u0000name\\r" holds a control character');
    // eslint-disable-next-line no-control-regex -- no control character may reach the terminal
    expect(run.stderr.replaceAll("\n", "")).not.toMatch(/[\u0000-\u001f]/);
    expect(await listDataFiles(asIs.out).catch(() => [])).toEqual([]);
  });
});

describe("a removed field's column", () => {
  it("is dropped once schema.keep_removed_days have passed since the run that first missed it", async ({
    service,
    workspace,
  }) => {
    const { emulator } = service;
    const { file, out } = await pipeline(
      workspace,
      "    column_names: snake_case\n    schema: { keep_removed_days: 30 }\n",
    );
    const env = emulatorEnv(emulator);
    expect((await runCli(["run", file, ...FIRST], { env })).code).toBe(0);
    emulator.changeFields("jobs", { remove: ["workflow.id"] });
    // The field went 31 days ago: the pin says so, as a run then would have recorded it.
    const pin = JSON.parse(await pinText(out)) as { columns: Record<string, unknown>[] };
    const gone = pin.columns.find((column) => column.name === "workflow_id");
    expect(gone).toBeDefined();
    if (gone !== undefined) gone["removed_at"] = new Date(Date.now() - 31 * 86_400_000).toISOString();
    await writeFile(join(out, ...PIN), JSON.stringify(pin));
    const second = await runCli(["run", file, ...SECOND], { env });
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toContain("longer than schema.keep_removed_days: column dropped");
    const after = (JSON.parse(await pinText(out)) as { columns: { name: string }[] }).columns;
    expect(after.map((column) => column.name)).not.toContain("workflow_id");
    expect(after.map((column) => column.name)).toEqual(
      pin.columns.map((column) => column["name"]).filter((name) => name !== "workflow_id"),
    );
    const newer = await readParquet(
      out,
      (await listDataFiles(out)).filter((path) => path.includes("hour=02") || path.includes("hour=03")),
    );
    expect(newer.rows.length).toBeGreaterThan(0);
    expect(Object.keys(newer.types)).not.toContain("workflow_id");
  });
});
