// The fuzz's driver, shared by `npm test` (a small fixed budget) and `npm run fuzz` (a longer one):
// fast-check generates cases, each is run and judged against one reused DuckDB instance, and a
// failure is reported with the seed, the path to replay it and the case itself (YAML and data).
import { DuckDBInstance } from "@duckdb/node-api";
import type { DuckDBConnection } from "@duckdb/node-api";
import fc from "fast-check";
import { casePipelineYaml } from "./case-pipeline.js";
import { checkCase } from "./check-case.js";
import type { Verdict } from "./check-case.js";
import { fuzzCaseArb } from "./case-arbitraries.js";
import type { FuzzCase } from "./fuzz-case.js";

export interface FuzzOptions {
  runs: number;
  seed: number;
  /** fast-check's replay path of a reported failure. */
  path?: string;
  /** Shrink a failure to a smaller case (slower). Default true. */
  shrink?: boolean;
  /** Called after each case with its verdict. */
  onCase?: (fuzzCase: FuzzCase, verdict: Verdict) => void;
}

export interface FuzzReport {
  seed: number;
  runs: number;
  failed: boolean;
  /** The failure as text: seed, replay path, the case's YAML and data profile, and what differs. */
  message: string;
  outcomes: Record<string, number>;
}

/** The command that runs exactly this case again, quoted for a POSIX shell. */
export function replayCommand(fuzzCase: FuzzCase): string {
  return `npm run fuzz -- --replay '${JSON.stringify(fuzzCase).replaceAll("'", "'\\''")}'`;
}

/** A case as text a person can read and replay. */
export function describeCase(fuzzCase: FuzzCase, verdict?: Verdict): string {
  const lines = [
    `reader time zone: ${fuzzCase.zone}`,
    `data: ${JSON.stringify(fuzzCase.data)}`,
    "pipeline (sinks write under the case's folder):",
    casePipelineYaml(fuzzCase, "CASE").trimEnd().replace(/^/gm, "  "),
    `exporter time zone: ${fuzzCase.exporterZone ?? "UTC (TZ unset)"}`,
    `replay: ${replayCommand(fuzzCase)}`,
  ];
  if (verdict !== undefined)
    lines.push(`outcome: ${verdict.outcome}`, ...verdict.problems.map((p) => `  - ${p}`));
  return lines.join("\n");
}

async function withConnection<T>(body: (connection: DuckDBConnection) => Promise<T>): Promise<T> {
  const instance = await DuckDBInstance.create(":memory:");
  const connection = await instance.connect();
  try {
    return await body(connection);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/** Runs `runs` generated cases from `seed`; stops at the first failure (shrunk unless told not to). */
export async function runFuzz(options: FuzzOptions): Promise<FuzzReport> {
  const outcomes: Record<string, number> = {};
  return withConnection(async (connection) => {
    let last: { fuzzCase: FuzzCase; verdict: Verdict } | undefined;
    const property = fc.asyncProperty(fuzzCaseArb, async (fuzzCase) => {
      const verdict = await checkCase(fuzzCase, connection);
      outcomes[verdict.outcome] = (outcomes[verdict.outcome] ?? 0) + 1;
      options.onCase?.(fuzzCase, verdict);
      if (verdict.problems.length > 0) {
        last = { fuzzCase, verdict };
        return false;
      }
      return true;
    });
    const details = await fc.check(property, {
      numRuns: options.runs,
      seed: options.seed,
      path: options.path,
      endOnFailure: options.shrink === false,
    });
    if (!details.failed)
      return { seed: options.seed, runs: details.numRuns, failed: false, message: "", outcomes };
    const failing = details.counterexample?.[0];
    const verdict = failing !== undefined ? await checkCase(failing, connection) : last?.verdict;
    const message = [
      `warehouse-view fuzz failed after ${details.numRuns} case(s), ${details.numShrinks} shrink(s)`,
      `replay: npm run fuzz -- --seed ${options.seed} --path ${details.counterexamplePath ?? ""} --runs 1`,
      ...(failing !== undefined ? [`or, whatever the generator became: ${replayCommand(failing)}`] : []),
      failing !== undefined ? describeCase(failing, verdict) : String(details.errorInstance),
    ].join("\n");
    return { seed: options.seed, runs: details.numRuns, failed: true, message, outcomes };
  });
}

/** Runs `runs` generated cases without stopping, for a survey of the failure classes. */
export async function surveyFuzz(
  runs: number,
  seed: number,
  onCase: (fuzzCase: FuzzCase, verdict: Verdict, index: number) => void,
): Promise<void> {
  const cases = fc.sample(fuzzCaseArb, { numRuns: runs, seed });
  await withConnection(async (connection) => {
    for (const [index, fuzzCase] of cases.entries())
      onCase(fuzzCase, await checkCase(fuzzCase, connection), index);
  });
}

/** Runs one case given as the JSON of the `replay:` line `describeCase` prints. */
export async function replayCase(json: string): Promise<Verdict> {
  const fuzzCase = JSON.parse(json) as FuzzCase;
  return withConnection((connection) => checkCase(fuzzCase, connection));
}
