// Pages of 10,000 at the page sizes users run: 500,000 jobs over point in time in 15 one-hour slices,
// 4 at once, in two scenarios — latency-bound (250 ± 50 ms per request) and CPU-bound (20 ms) — for
// the ceiling, elasticdump (when installed, see bench/elasticdump.js), and the exporter into NDJSON and
// Parquet. Rounds are interleaved (every program once per round, each on a fresh emulator) and the
// figures are medians over rounds; a ratio is taken against the ceiling of the same round.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  CLI,
  dataBytes,
  emulatorEnv,
  fmt,
  median,
  pipelineYaml,
  root,
  runNode,
  startEmulator,
  writtenRecords,
} from "./harness.js";

const HOURS = 15;
const APP_TYPES = ["ec2", "kubernetes"];
const DOMAINS = 3;
const START = Date.parse("2026-03-01T00:00:00Z");

export const SCENARIOS = [
  // The emulator adds `latency` plus a uniform 0..jitter: 200 + 0..100 is 250 ± 50 ms.
  { id: "latency-bound", label: "250 ± 50 ms per request", latencyMs: 200, jitterMs: 100 },
  { id: "cpu-bound", label: "20 ms per request", latencyMs: 20, jitterMs: 0 },
];
const PROGRAMS = [
  { id: "ceiling" },
  { id: "elasticdump" },
  { id: "ndjson", sink: { format: "ndjson" } },
  { id: "parquet", sink: { format: "parquet" } },
  // With `--before DIR` (a built checkout of an earlier version): the same exports by that version.
  { id: "ndjson-before", sink: { format: "ndjson" }, before: true },
  { id: "parquet-before", sink: { format: "parquet" }, before: true },
];

/**
 * @param {{ records: number, pageSize: number, concurrency: number, rounds: number,
 *   elasticdump?: string, before?: string, pin?: boolean, growth?: number[],
 *   log: (line: string) => void }} options
 */
export async function runLargePages(options) {
  const { records, pageSize, concurrency } = options;
  const density = records / (DOMAINS * APP_TYPES.length * HOURS);
  const scratch = mkdtempSync(join(options.scratch, "large-"));
  const runs = [];

  // More records at the same density come from a longer window: more slices of the same size.
  async function runOne(scenario, program, prefix = [], hours = HOURS) {
    const start = new Date(START).toISOString();
    const end = new Date(START + hours * 3_600_000).toISOString();
    const emulator = await startEmulator({
      density,
      latencyMs: scenario.latencyMs,
      jitterMs: scenario.jitterMs,
    });
    const dir = mkdtempSync(join(scratch, `${program.id}-`));
    try {
      if (program.id === "ceiling") {
        const result = await runNode(scratch, [
          join(root, "bench", "ceiling.js"),
          ...["--base-url", emulator.url, "--mode", "pit", "--start", start, "--end", end],
          ...["--page-size", String(pageSize), "--concurrency", String(concurrency)],
          ...["--app-types", APP_TYPES.join(",")],
        ]);
        const out = JSON.parse(result.stdout.trim().split("\n").pop());
        return { ...result, records: out.records };
      }
      if (program.id === "elasticdump") {
        const result = await runNode(scratch, [
          join(root, "bench", "elasticdump.js"),
          ...["--bin", options.elasticdump, "--base-url", emulator.url, "--start", start, "--end", end],
          ...["--page-size", String(pageSize), "--out", dir],
        ]);
        const out = JSON.parse(result.stdout.trim().split("\n").pop());
        // The shim runs in the driver's process: the service side, so its CPU is left out.
        return {
          seconds: result.seconds,
          records: out.records,
          cpuSeconds: out.cpuSeconds,
          peakRssMb: out.peakRssMb,
        };
      }
      const pipeline = join(dir, "pipeline.yaml");
      const out = join(dir, "out");
      writeFileSync(
        pipeline,
        pipelineYaml({
          name: `bench-large-${program.id}`,
          kind: "jobs",
          appTypes: APP_TYPES,
          start,
          end,
          strategy: "pit",
          pageSize,
          sink: program.sink,
          out,
          concurrency,
        }),
      );
      const cli = program.before ? join(options.before, "dist", "cli", "main.js") : CLI;
      const result = await runNode(scratch, [cli, "run", pipeline, "--log-level", "warn"], {
        env: emulatorEnv(emulator.url),
        prefix,
      });
      return { ...result, records: writtenRecords(result.stdout), outputMb: dataBytes(out) / 1e6 };
    } finally {
      await emulator.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  }

  const programs = PROGRAMS.filter(
    (p) =>
      (p.id !== "elasticdump" || options.elasticdump !== undefined) &&
      (p.before !== true || options.before !== undefined),
  );
  try {
    for (let round = 1; round <= options.rounds; round++) {
      for (const scenario of SCENARIOS) {
        for (const program of programs) {
          const result = await runOne(scenario, program);
          runs.push({
            round,
            scenario: scenario.id,
            program: program.id,
            ...result,
            stdout: undefined,
            stderr: undefined,
          });
          options.log(
            `round ${round} ${scenario.id}/${program.id}: ${fmt(result.records)} records in ${fmt(result.seconds, 1)} s, ` +
              `${fmt(result.cpuSeconds, 1)} CPU s, ${fmt(result.peakRssMb)} MB peak`,
          );
        }
      }
    }
    // Scaling: the exporter pinned to one core, then two, in the latency-bound scenario.
    const pinned = [];
    if (options.pin) {
      for (const cores of ["0", "0,1"]) {
        for (const program of programs.filter((p) => p.sink !== undefined && p.before !== true)) {
          const result = await runOne(SCENARIOS[0], program, ["taskset", "-c", cores]);
          pinned.push({
            cores: cores.split(",").length,
            program: program.id,
            ...result,
            stdout: undefined,
            stderr: undefined,
          });
          options.log(`pinned to ${cores}: ${program.id} ${fmt(result.records / result.seconds)} records/s`);
        }
      }
    }
    // Flat memory: Parquet, CPU-bound, at each of `growth` records (the window grows, slices do not).
    const growth = [];
    for (const total of options.growth ?? []) {
      const program = PROGRAMS.find((p) => p.id === "parquet");
      const hours = Math.round((HOURS * total) / records);
      const result = await runOne(SCENARIOS[1], program, [], hours);
      growth.push({ records: result.records, hours, ...result, stdout: undefined, stderr: undefined });
      options.log(`growth: ${fmt(result.records)} records, ${fmt(result.peakRssMb)} MB peak`);
    }
    return {
      settings: { records, pageSize, concurrency, hours: HOURS, rounds: options.rounds },
      runs,
      pinned,
      growth,
      summary: summarize(runs),
    };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Medians over rounds per scenario and program; ratios against the same round's ceiling. */
export function summarize(runs) {
  const rows = [];
  for (const scenario of SCENARIOS) {
    const mine = runs.filter((run) => run.scenario === scenario.id);
    const ceilingOf = (round) => mine.find((run) => run.round === round && run.program === "ceiling");
    for (const program of PROGRAMS) {
      const list = mine.filter((run) => run.program === program.id);
      if (list.length === 0) continue;
      const ceilingCpu = (round) => ceilingOf(round).cpuSeconds / ceilingOf(round).records;
      rows.push({
        scenario: scenario.id,
        program: program.id,
        records: median(list.map((run) => run.records)),
        recordsPerSecond: median(list.map((run) => run.records / run.seconds)),
        ratio: median(
          list.map(
            (run) =>
              run.records / run.seconds / (ceilingOf(run.round).records / ceilingOf(run.round).seconds),
          ),
        ),
        cpuPerMillion: median(list.map((run) => (run.cpuSeconds / run.records) * 1e6)),
        cpuRatio: median(list.map((run) => run.cpuSeconds / run.records / ceilingCpu(run.round))),
        peakRssMb: median(list.map((run) => run.peakRssMb)),
        maxPeakRssMb: Math.max(...list.map((run) => run.peakRssMb)),
      });
    }
  }
  return rows;
}

/** The tables of RESULTS.md for pages of 10,000. */
export function largePagesMarkdown(result) {
  const lines = [
    "| scenario | program | records | records/s | × ceiling | CPU s per million records | × ceiling's CPU | peak RSS MB (median, max) |",
    "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |",
  ];
  for (const row of result.summary) {
    const label = SCENARIOS.find((s) => s.id === row.scenario).label;
    lines.push(
      `| ${label} | ${row.program} | ${fmt(row.records)} | ${fmt(row.recordsPerSecond)} | ${fmt(row.ratio, 2)} | ` +
        `${fmt(row.cpuPerMillion, 1)} | ${fmt(row.cpuRatio, 2)} | ${fmt(row.peakRssMb)}, ${fmt(row.maxPeakRssMb)} |`,
    );
  }
  if (result.growth?.length > 0) {
    lines.push(
      "",
      "Memory as the export grows, Parquet, 20 ms per request (the window grows; slices stay 1h):",
      "",
    );
    lines.push(
      "| records | slices | records/s | CPU s per million records | peak RSS MB |",
      "| ---: | ---: | ---: | ---: | ---: |",
    );
    for (const run of result.growth) {
      lines.push(
        `| ${fmt(run.records)} | ${run.hours} | ${fmt(run.records / run.seconds)} | ${fmt((run.cpuSeconds / run.records) * 1e6, 1)} | ${fmt(run.peakRssMb)} |`,
      );
    }
  }
  if (result.pinned.length > 0) {
    lines.push("", "Scaling, latency-bound, the exporter pinned with `taskset` (one run each):", "");
    lines.push(
      "| program | cores | records/s | CPU s | peak RSS MB |",
      "| --- | ---: | ---: | ---: | ---: |",
    );
    for (const run of result.pinned) {
      lines.push(
        `| ${run.program} | ${run.cores} | ${fmt(run.records / run.seconds)} | ${fmt(run.cpuSeconds, 1)} | ${fmt(run.peakRssMb)} |`,
      );
    }
  }
  return lines.join("\n");
}
