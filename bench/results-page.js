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
  all threads). The ceiling pages the same queries with undici (keep-alive), parses each page with
  \`JSON.parse\` and discards it. The emulator runs in its own process, on the same two cores.

## Pages of 10,000

${largePagesSection(data.largePages)}

## Pages of 1,000

- Run of ${data.smallPagesDate ?? data.date}. Emulator: ${s.latencyMs} ms latency + up to ${s.jitterMs} ms jitter per request;
  ${s.window}, ${s.streams}; page size ${s.pageSize}; ${s.concurrency} slices at once; about ${fmt(s.records)} records.
- Requests: counted by the emulator, token requests excluded; in brackets the ceiling's count (the
  paging minimum) plus what the exporter spent beyond it (planner probes).

${tableText}

Memory growth: ${growth}
`;
}
