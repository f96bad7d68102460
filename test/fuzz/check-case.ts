// Runs one fuzz case and judges it: the CLI (in this process, through its argument parsing and exit
// codes, the process in the case's TZ) either refuses the pipeline before writing anything (exit 2,
// with a message) for a reason the docs give (refusals.ts), or the warehouse's view of every sink
// equals the reference model's rows of the emulator's records.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { DuckDBConnection } from "@duckdb/node-api";
import { startEmulator } from "../../src/emulator/server.js";
import type { RunningEmulator } from "../../src/emulator/server.js";
import {
  dataFiles,
  emulatorEnv,
  EMULATOR_NOW,
  listTree,
  makeTempDir,
  removeDir,
  runCli,
} from "../support/cli-harness.js";
import { caseEmulatorOptions, casePipelineYaml, caseQueries, caseSliceOf, sinkDir } from "./case-pipeline.js";
import type { FuzzCase, SinkCase } from "./fuzz-case.js";
import { applyTransforms, modelRow, projectFields, recordOfHit } from "./reference-model.js";
import { recordPlaceholders, refusalReasons, sliceMinutes } from "./refusals.js";
import type { ModelRow, Record_ } from "./reference-model.js";
import { compareView } from "./view-compare.js";
import type { PartitionColumn } from "./view-compare.js";
import { checkNdjsonFile, readDdlView, readParquetFile } from "./warehouse-view.js";

export interface Verdict {
  outcome: "exported" | "refused" | "malformed-answer-refused";
  /** Empty when the case holds. */
  problems: string[];
  records: number;
  /** What a refusal said (its problems, file positions removed), for the survey. */
  refusal?: string;
}

const NOW = new Date(EMULATOR_NOW).toISOString();
/** The `key={placeholder}` directories of a template, as the partition columns a hive reader sees. */
function partitionColumns(sink: SinkCase): PartitionColumn[] {
  const columns: PartitionColumn[] = [];
  for (const match of (sink.path ?? "").matchAll(/([^/{}=]+)=\{([^}]+)\}/g)) {
    const [, name, placeholder] = match as unknown as [string, string, string];
    if (placeholder === "date")
      columns.push({ name, expected: (row) => new Date(row.time).toISOString().slice(0, 10) });
    else if (placeholder === "hour")
      columns.push({ name, expected: (row) => new Date(row.time).getUTCHours() });
    else
      columns.push({
        name,
        expected: (row) => {
          const value = row.columns.get(placeholder);
          return value === undefined || value === null ? null : String(value);
        },
      });
  }
  return columns;
}

/** The rows a sink should hold: each record through source.fields, the transforms and the naming. */
function modelRows(fuzzCase: FuzzCase, records: readonly Record_[], sink: SinkCase): ModelRow[] {
  const run = { pipelineName: "fuzz-case", sliceOf: caseSliceOf(fuzzCase, sliceMinutes(fuzzCase)) };
  return records.flatMap((record) => {
    const transformed = applyTransforms(
      projectFields(record, fuzzCase.source.fields),
      fuzzCase.transforms,
      run,
    );
    return transformed === undefined ? [] : [modelRow(record, transformed, sink.columnNames)];
  });
}

/** Runs the CLI with the exporter's process in the case's zone (Node reads a changed TZ at once). */
async function runInZone(
  zone: string | undefined,
  argv: readonly string[],
  options: Parameters<typeof runCli>[1],
): ReturnType<typeof runCli> {
  const before = process.env["TZ"];
  if (zone !== undefined) process.env["TZ"] = zone;
  try {
    return await runCli(argv, options);
  } finally {
    if (before === undefined) delete process.env["TZ"];
    else process.env["TZ"] = before;
  }
}

/** The output columns of sink `index` (0-based), as `schema --json` prints them. */
async function sinkColumns(file: string, index: number, env: Record<string, string>): Promise<Set<string>> {
  const shown = await runCli(["schema", file, "--sink", String(index + 1), "--json", "--now", NOW], { env });
  if (shown.code !== 0) throw new Error(`schema exited ${shown.code}: ${shown.stderr.slice(0, 400)}`);
  const document = JSON.parse(shown.stdout) as { columns: { name: string }[] };
  return new Set(document.columns.map((column) => column.name));
}

async function serviceRecords(fuzzCase: FuzzCase, emulator: RunningEmulator): Promise<Record_[]> {
  const { target, bodies } = caseQueries(fuzzCase);
  const records: Record_[] = [];
  for (const body of bodies)
    for await (const hit of emulator.expectedHits(target as "jobs", body)) records.push(recordOfHit(hit));
  return records;
}

/** The problems a refusal lists, without the case's temporary paths: one line per problem. */
export function refusalText(stderr: string): string {
  const lines = stderr
    .split("\n")
    .filter((line) => /^\s+\S+:\d+:\d+: /.test(line))
    .map((line) => line.replace(/^\s+\S+:\d+:\d+: /, ""));
  return (lines.length > 0 ? lines : [stderr.trim()]).join(" | ");
}

/** Why a run failed: its error lines (a warning logged after them must not hide them), else the tail. */
function failureText(stderr: string): string {
  const errors = stderr
    .split("\n")
    .filter((line) => /^error|"level":"(error|fatal)"|"level":[56]0\b/.test(line));
  return (errors.length > 0 ? errors.join(" | ") : stderr.trim()).slice(-800);
}

export async function checkCase(fuzzCase: FuzzCase, connection: DuckDBConnection): Promise<Verdict> {
  const dir = await makeTempDir("fuzz");
  const emulator = await startEmulator(caseEmulatorOptions(fuzzCase));
  try {
    const file = join(dir, "pipeline.yaml");
    await writeFile(file, casePipelineYaml(fuzzCase, dir));
    const env = emulatorEnv(emulator);
    const run = await runInZone(fuzzCase.exporterZone, ["run", file, "--now", NOW], { env });
    const written = (await Promise.all(fuzzCase.sinks.map((_sink, i) => listTree(sinkDir(dir, i))))).flat();
    const records = await serviceRecords(fuzzCase, emulator);
    if (run.code === 2) {
      const problems: string[] = [];
      const refusal = refusalText(run.stderr);
      if (written.length > 0) problems.push(`refused with exit 2 after writing ${written.join(", ")}`);
      if (run.stderr.trim() === "") problems.push("refused with exit 2 and no message");
      if (refusalReasons(fuzzCase, records).length === 0)
        problems.push(`a pipeline the docs call valid is refused: ${refusal.slice(0, 600)}`);
      return { outcome: "refused", problems, records: 0, refusal };
    }
    if (run.code !== 0) {
      if (fuzzCase.data.awkward.hitKeys && run.stderr.includes("API_ERROR"))
        return { outcome: "malformed-answer-refused", problems: [], records: 0 };
      return {
        outcome: "exported",
        problems: [`run exited ${run.code}: ${failureText(run.stderr)}`],
        records: 0,
      };
    }

    const problems: string[] = [];
    for (const [index, sink] of fuzzCase.sinks.entries()) {
      const label = `sink ${index + 1} (${sink.format})`;
      const model = modelRows(fuzzCase, records, sink);
      const out = sinkDir(dir, index);
      const files = dataFiles(await listTree(out));
      const ddl = await runInZone(
        fuzzCase.exporterZone,
        [
          "ddl",
          file,
          "--dialect",
          "duckdb",
          "--sink",
          String(index + 1),
          "--table",
          "fuzz_view",
          "--now",
          NOW,
        ],
        { env },
      );
      if (ddl.code !== 0) {
        problems.push(
          `${label}: ddl refuses the layout run wrote (exit ${ddl.code}): ${ddl.stderr.trim().slice(0, 400)}`,
        );
        continue;
      }
      if (model.length === 0 && files.length === 0) continue;
      // A placeholder must name a column the sink writes (docs/sinks.md); one that names none is a
      // partition every row lands in as null, which a run must refuse rather than write. A column the
      // sink writes may still be null in every row (a field these few records lack), so a name no row
      // holds is held to the sink's output columns as `schema` prints them.
      const unheld = recordPlaceholders(sink).filter(
        ({ placeholder }) => model.length > 0 && !model.some((row) => row.columns.has(placeholder)),
      );
      const written = unheld.length === 0 ? new Set<string>() : await sinkColumns(file, index, env);
      for (const { name, placeholder } of unheld)
        if (!written.has(placeholder))
          problems.push(
            `${label}: the template's ${name}={${placeholder}} names no column the sink writes, yet the run wrote rows`,
          );
      try {
        const view = await readDdlView(connection, ddl.stdout, "fuzz_view", fuzzCase.zone);
        for (const problem of compareView(model, view.rows, view.types, partitionColumns(sink)))
          problems.push(`${label}, DDL view in ${fuzzCase.zone}: ${problem}`);
      } catch (error) {
        problems.push(
          `${label}: the DDL view cannot be read in ${fuzzCase.zone}: ${String(error).slice(0, 400)}`,
        );
      }
      if (sink.format === "parquet") {
        const rows = [];
        const types: Record<string, string> = {};
        for (const path of files) {
          const table = await readParquetFile(join(out, path));
          rows.push(...table.rows);
          Object.assign(types, table.types);
        }
        for (const problem of compareView(model, rows, types, []))
          problems.push(`${label}, files read by arrow-rs: ${problem}`);
      } else {
        for (const path of files)
          for (const problem of await checkNdjsonFile(connection, join(out, path)))
            problems.push(`${label}: ${problem}`);
      }
    }
    return { outcome: "exported", problems, records: records.length };
  } finally {
    await emulator.close();
    await removeDir(dir);
  }
}
