// RESULTS.md from the figures of a run (bench/results/latest.json): pages of 10,000, then pages of 1,000.
import { fmt } from "./harness.js";
import { largePagesMarkdown } from "./large-pages.js";

export function markdown(results) {
  const lines = [
    "| run | records | records/s | ratio to ceiling | target | output MB/s | CPU s | peak RSS MB | requests (paging min + probes) |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
  ];
  for (const row of results.rows) {
    const ratio = row.ratio === undefined ? "1.00" : fmt(row.ratio, 2);
    const target = row.target === undefined ? "" : `≥ ${row.target}`;
    const requests =
      row.pagingMinimum === undefined
        ? `${fmt(row.requests)} (the minimum)`
        : `${fmt(row.requests)} (${fmt(row.pagingMinimum)} + ${fmt(row.requests - row.pagingMinimum)})`;
    const mbs =
      row.outputMbPerSecond === undefined
        ? `wire ${fmt(row.wireMbPerSecond, 1)}`
        : fmt(row.outputMbPerSecond, 1);
    lines.push(
      `| ${row.name} | ${fmt(row.records)} | ${fmt(row.recordsPerSecond)} | ${ratio} | ${target} | ${mbs} | ${fmt(row.cpuSeconds, 1)} | ${fmt(row.peakRssMb)} | ${requests} |`,
    );
  }
  return lines.join("\n");
}

function stateHistorySection(state) {
  if (state === undefined) return "Not measured yet (`npm run bench -- --scenario state-history`).";
  return `- Run of ${state.date}; ${state.how}; the state held ${fmt(state.stateMb, 1)} MB before the run.
- Fresh output: ${fmt(state.fresh.seconds, 2)} s (${fmt(state.fresh.cpuSeconds, 2)} s CPU), ${fmt(state.fresh.peakRssMb)} MB peak RSS.
- ${fmt(state.slices)} committed slices: ${fmt(state.history.seconds, 2)} s (${fmt(state.history.cpuSeconds, 2)} s CPU), ${fmt(state.history.peakRssMb)} MB peak RSS.`;
}

function largePagesSection(large) {
  if (large === undefined) return "Not measured yet (`npm run bench -- --scenario pages-10000`).";
  const st = large.settings;
  return `- Run of ${large.date}; ${fmt(st.records)} jobs over point in time, ${st.hours} slices of 1h, 3 domains × 2 app
  types, pages of ${fmt(st.pageSize)}, ${st.concurrency} slices at once; medians of ${st.rounds} interleaved rounds (each
  program once per round, each on a fresh emulator); ratios against the ceiling of the same round.
- elasticdump 6.125.1 (installed outside the project, \`--elasticdump PATH\`) scrolls the same records through
  an Elasticsearch-scroll shim over the emulator, one process over the whole window (it scrolls one index at a
  time), into one NDJSON file. \`-before\` rows, when present: the same exports by an earlier version of the
  exporter (\`--before DIR\`, a built checkout), in the same rounds.

${largePagesMarkdown(large)}`;
}

/** Pages of 1,000 before the work on issue 13 (the quiet run of 2026-11-22 05:55 UTC): ratios to the ceiling. */
const PAGES_1000_BEFORE = {
  "jobs-pit/ndjson": 0.87,
  "jobs-pit/ndjson-gzip": 0.84,
  "jobs-pit/parquet": 0.66,
  "logs-scroll/ndjson": 0.92,
  "logs-scroll/ndjson-gzip": 0.91,
  "logs-scroll/parquet": 0.7,
  "logs-batch/ndjson": 0.58,
  "logs-batch/ndjson-gzip": 0.58,
  "logs-batch/parquet": 0.49,
};

const WHY =
  "[why, and what would close it](../docs/performance.md#targets-missed-why-and-what-would-close-them)";

/** Each target of issue 13 against this run's figures: met, or missed with where the reason is. */
export function targetsSection(data) {
  const large = data.largePages;
  if (large === undefined) return "Pages of 10,000 not measured yet.";
  const row = (scenario, program) =>
    large.summary.find((r) => r.scenario === scenario && r.program === program);
  const lines = ["| target | figure | |", "| --- | --- | --- |"];
  const add = (target, figure, met) =>
    lines.push(`| ${target} | ${figure} | ${met ? "met" : `missed; ${WHY}`} |`);
  const ratio = (scenario, program, min) => {
    const r = row(scenario, program);
    if (r !== undefined)
      add(`${scenario}: ${program} ≥ ${min} × the ceiling`, fmt(r.ratio, 2), r.ratio >= min);
  };
  const cpu = (program, max) => {
    const r = row("cpu-bound", program);
    if (r !== undefined)
      add(
        `cpu-bound: ${program} CPU per record ≤ ${max} × the ceiling's`,
        fmt(r.cpuRatio, 2),
        r.cpuRatio <= max,
      );
  };
  ratio("latency-bound", "ndjson", 0.9);
  ratio("latency-bound", "parquet", 0.8);
  cpu("ndjson", 1.3);
  cpu("parquet", 2);
  for (const scenario of ["latency-bound", "cpu-bound"]) {
    const ed = row(scenario, "elasticdump");
    if (ed === undefined) continue;
    for (const program of ["ndjson", "parquet"]) {
      const r = row(scenario, program);
      if (r === undefined) continue;
      const times = r.recordsPerSecond / ed.recordsPerSecond;
      add(`${scenario}: ${program} faster than elasticdump`, `${fmt(times, 2)} × its records/s`, times > 1);
    }
  }
  for (const scenario of ["latency-bound", "cpu-bound"])
    for (const program of ["ndjson", "parquet"]) {
      const r = row(scenario, program);
      if (r !== undefined)
        add(
          `${scenario}: ${program} peak RSS ≤ 300 MB`,
          `${fmt(r.peakRssMb)} MB (max ${fmt(r.maxPeakRssMb)})`,
          r.maxPeakRssMb <= 300,
        );
    }
  const growth = large.growth ?? [];
  if (growth.length >= 2) {
    const first = growth[0];
    const last = growth[growth.length - 1];
    const change = last.peakRssMb / first.peakRssMb - 1;
    add(
      `flat memory from ${fmt(first.records)} to ${fmt(last.records)} records (< 10%)`,
      `${fmt(first.peakRssMb)} → ${fmt(last.peakRssMb)} MB (${(change * 100).toFixed(1)}%)`,
      change < 0.1,
    );
  }
  for (const r of data.rows ?? []) {
    const before = PAGES_1000_BEFORE[r.name];
    if (before === undefined || r.ratio === undefined) continue;
    // Within 0.03: the spread of two runs of the same build on this machine.
    add(
      `pages of 1,000: ${r.name} the same or better (was ${fmt(before, 2)})`,
      fmt(r.ratio, 2),
      r.ratio >= before - 0.03,
    );
  }
  const beyond = row("cpu-bound", "ndjson");
  if (beyond !== undefined)
    add(
      "beyond: NDJSON faster than the ceiling (cpu-bound)",
      `${fmt(beyond.ratio, 2)} × the ceiling`,
      beyond.ratio > 1,
    );
  return lines.join("\n");
}

export function resultsPage(data, tableText) {
  const s = data.settings;
  const growth =
    data.growth === undefined
      ? "Not measured in this run (`--growth N`)."
      : `${data.growth.name}: ${fmt(data.growth.small?.records)} records → ${fmt(data.growth.small?.peakRssMb)} MB peak; ` +
        `${fmt(data.growth.large.records)} records → ${fmt(data.growth.large.peakRssMb)} MB peak ` +
        `(${data.growth.growth === undefined ? "–" : `${(data.growth.growth * 100).toFixed(1)}%`}); ${data.growth.how}.`;
  return `# Benchmark results

Written by \`npm run bench\` (bench/run.js); the raw figures are in [results/latest.json](results/latest.json).
How to read them and what bounds them: [docs/performance.md](../docs/performance.md).

- Date: ${data.date}; whole run: ${fmt(data.totalSeconds)} s.
- Machine: ${data.machine.cpu}, ${data.machine.cores} cores, Node ${data.machine.node}, ${data.machine.platform}
- Each program runs in its own process; CPU s and peak RSS are that process's own (getrusage at exit,
  all threads). The ceiling pages the same queries with node:http (keep-alive), parses each page with
  one \`JSON.parse\` and discards it. The emulator runs in its own process, on the same two cores.

## Targets (issue 13)

${targetsSection(data)}

## Pages of 10,000

${largePagesSection(data.largePages)}

## A long state

${stateHistorySection(data.stateHistory)}

## Pages of 1,000

- Run of ${data.smallPagesDate ?? data.date}. Emulator: ${s.latencyMs} ms latency + up to ${s.jitterMs} ms jitter per request;
  ${s.window}, ${s.streams}; page size ${s.pageSize}; ${s.concurrency} slices at once; about ${fmt(s.records)} records.
- Requests: counted by the emulator, token requests excluded; in brackets the ceiling's count (the
  paging minimum) plus what the exporter spent beyond it (planner probes).

${tableText}

Memory growth: ${growth}
`;
}
