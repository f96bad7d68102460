// The pinned schema and the drift policy, end to end: the first run pins each sink's schema; between
// two runs the emulator's jobs gain, lose or retype a field, and the second run does what the sink's
// policy says, with every file of the sink in the pinned column order and types.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect } from "vitest";
import type { RunningEmulator } from "../src/emulator/server.js";
import { listDataFiles, readManifest, readParquet } from "./support/read-output.js";
import { kubernetesJobsYaml } from "./support/jobs-pipeline.js";
import { emulatorEnv, runCli } from "./support/cli-harness.js";
import type { Workspace } from "./support/cli-harness.js";
import { fieldsAsGenerated, useEmulator } from "./support/use-emulator.js";
import type { EmulatorFixtures } from "./support/use-emulator.js";

const it = useEmulator({ density: 3 }).extend<{ generatedFields: void }>({
  generatedFields: fieldsAsGenerated("jobs"),
});
let runs = 0;

const FIRST = ["--start", "2026-03-10T00:00:00Z", "--end", "2026-03-10T02:00:00Z"];
const SECOND = ["--start", "2026-03-10T02:00:00Z", "--end", "2026-03-10T04:00:00Z"];

async function pipeline(workspace: Workspace, policy: string, out: string): Promise<string> {
  return workspace.write(
    `drift-${++runs}.yaml`,
    kubernetesJobsYaml(
      "drift",
      `  - format: parquet
    to: ${out}
    path: "dt={date}/hour={hour}/part-{slice}-{seq}.parquet"
    column_names: snake_case
    schema: ${policy}
`,
    ),
  );
}

async function pinned(
  out: string,
): Promise<{ name: string; type: string; nullable: boolean; source: string | null; removed_at?: string }[]> {
  return (JSON.parse(await readFile(join(out, "_mdq-export", "schema.json"), "utf8")) as { columns: [] })
    .columns;
}

/** Every file read on its own: its columns in order with DuckDB's types. */
async function fileColumns(out: string): Promise<string[][]> {
  const columns: string[][] = [];
  for (const file of await listDataFiles(out)) {
    const table = await readParquet(out, [file]);
    columns.push(Object.entries(table.types).map(([name, type]) => `${name} ${type}`));
  }
  return columns;
}

async function twoRuns(
  { service, workspace }: EmulatorFixtures,
  policy: string,
  change: Parameters<RunningEmulator["changeFields"]>[1],
): Promise<{
  out: string;
  second: Awaited<ReturnType<typeof runCli>>;
  before: Awaited<ReturnType<typeof pinned>>;
  plan: Awaited<ReturnType<typeof runCli>>;
}> {
  const out = join(workspace.dir, `out-${runs + 1}`);
  const file = await pipeline(workspace, policy, out);
  const env = service.env;
  const first = await runCli(["run", file, ...FIRST], { env });
  expect(first.code, first.stderr).toBe(0);
  const before = await pinned(out);
  service.emulator.changeFields("jobs", change);
  const plan = await runCli(["plan", file, ...SECOND], { env });
  const second = await runCli(["run", file, ...SECOND], { env });
  return { out, second, before, plan };
}

describe("the pinned schema", () => {
  it("is written by the first run beside the output and in the manifest, with source fields", async ({
    service,
    workspace,
  }) => {
    const { emulator } = service;
    const out = join(workspace.dir, "out-first");
    const file = await pipeline(workspace, "{}", out);
    const result = await runCli(["run", file, ...FIRST], { env: emulatorEnv(emulator) });
    expect(result.code, result.stderr).toBe(0);
    const columns = await pinned(out);
    expect(columns.slice(0, 3)).toEqual([
      { name: "_id", type: "string", nullable: false, source: "_id" },
      { name: "_index", type: "string", nullable: false, source: "_index" },
      { name: "timestamp", type: "timestamp", nullable: true, source: "@timestamp" },
    ]);
    expect(columns).toContainEqual({
      name: "job_execution_time_elapsed",
      type: "double",
      nullable: true,
      source: "job.execution_time.elapsed",
    });
    expect((await readManifest(out)).schema).toEqual(columns);
    const expected = columns.map((column) => column.name);
    for (const names of await fileColumns(out))
      expect(names.map((entry) => entry.split(" ")[0])).toEqual(expected);
  });
});

describe("a field added between two runs", () => {
  it("add: a new nullable column at the end, in the new files and the pin", async ({
    service,
    workspace,
  }) => {
    const { out, second, before, plan } = await twoRuns({ service, workspace }, "{ new_fields: add }", {
      add: { "job.priority": "integer" },
    });
    // plan shows the drift before anything is written.
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain(
      `Schema drift:
  sink 1 (${out}): new field "job.priority" (column job_priority) added as nullable int32 column`,
    );
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toContain(
      'new field \\"job.priority\\" (column job_priority) added as nullable int32 column',
    );
    const after = await pinned(out);
    expect(after).toEqual([
      ...before,
      { name: "job_priority", type: "int32", nullable: true, source: "job.priority" },
    ]);
    const files = await listDataFiles(out);
    const newer = await readParquet(
      out,
      files.filter((f) => f.includes("hour=02") || f.includes("hour=03")),
    );
    expect(newer.types["job_priority"]).toBe("INTEGER");
    expect(newer.rows.every((row) => Number.isInteger(row["job_priority"]))).toBe(true);
  });

  it("ignore: not written, the pin unchanged", async ({ service, workspace }) => {
    const { out, second, before } = await twoRuns({ service, workspace }, "{ new_fields: ignore }", {
      add: { "job.priority": "integer" },
    });
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toContain("ignored (schema.new_fields: ignore)");
    expect(await pinned(out)).toEqual(before);
    for (const names of await fileColumns(out)) expect(names.join()).not.toContain("job_priority");
  });

  it("fail: the run fails naming the field before anything is written", async ({ service, workspace }) => {
    const { out, second, before, plan } = await twoRuns({ service, workspace }, "{ new_fields: fail }", {
      add: { "job.priority": "integer" },
    });
    expect(plan.code).toBe(1);
    expect(plan.stdout).toContain("Schema drift the policy refuses:");
    expect(second.code).toBe(1);
    expect(second.stderr).toContain('field "job.priority" (column job_priority) (int32) is new');
    expect(await pinned(out)).toEqual(before);
    expect((await listDataFiles(out)).some((f) => f.includes("hour=02"))).toBe(false);
  });
});

describe("a field removed between two runs", () => {
  it.for(["add", "ignore", "fail"])(
    "%s: the column stays in its place, written as nulls, reported",
    async (policy, { service, workspace }) => {
      const { out, second, before } = await twoRuns({ service, workspace }, `{ new_fields: ${policy} }`, {
        remove: ["workflow.id"],
      });
      expect(second.code, second.stderr).toBe(0);
      expect(second.stderr).toMatch(
        /no longer in the service's mappings since \d{4}-\d\d-\d\dT[\d:.]+Z: column kept, written as nulls \(schema.keep_removed_days\)/,
      );
      // The pin keeps the column and records since when its field is gone.
      const after = await pinned(out);
      expect(after.map(({ removed_at: _removed, ...column }) => column)).toEqual(before);
      const removedAt = after.find((column) => column.name === "workflow_id")?.removed_at;
      expect(Date.now() - Date.parse(removedAt ?? "")).toBeLessThan(10 * 60_000);
      const files = await listDataFiles(out);
      const newer = await readParquet(
        out,
        files.filter((f) => f.includes("hour=03")),
      );
      expect(newer.rows.length).toBeGreaterThan(0);
      expect(newer.rows.every((row) => row["workflow_id"] === null)).toBe(true);
      const expected = before.map((column) => column.name);
      for (const names of await fileColumns(out))
        expect(names.map((entry) => entry.split(" ")[0])).toEqual(expected);
    },
  );
});

describe("a field retyped between two runs", () => {
  it("fail (the default): the run fails naming the field and both types, nothing written", async ({
    service,
    workspace,
  }) => {
    const { out, second } = await twoRuns({ service, workspace }, "{}", {
      retype: { "job.execution_time.elapsed": "keyword" },
    });
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(
      'field "job.execution_time.elapsed" (column job_execution_time_elapsed) changed type from double (pinned) to string',
    );
    expect((await listDataFiles(out)).some((f) => f.includes("hour=02"))).toBe(false);
  });

  it("string: written as text from then on, reported, the pin says string", async ({
    service,
    workspace,
  }) => {
    const { out, second, before } = await twoRuns({ service, workspace }, "{ type_changes: string }", {
      retype: { "job.execution_time.elapsed": "keyword" },
    });
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toContain("changed type from double to string: written as text");
    const after = await pinned(out);
    expect(after.find((c) => c.name === "job_execution_time_elapsed")?.type).toBe("string");
    expect(after.map((c) => c.name)).toEqual(before.map((c) => c.name));
    const files = await listDataFiles(out);
    const newer = await readParquet(
      out,
      files.filter((f) => f.includes("hour=03")),
    );
    expect(newer.types["job_execution_time_elapsed"]).toBe("VARCHAR");
  });
});
