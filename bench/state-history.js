// A run against a long history: 24 one-hour slices exported into an output whose state already holds
// 100,000 committed slices (eleven years of an hourly schedule), beside the same run into a fresh
// output. A commit writes one journal entry of its slice, not the whole state, so the run should cost
// about what the fresh one does plus one read and one write of the state. Reports wall time, peak RSS
// (getrusage, bench/usage-hook.js) and the state's size.
//
// node bench/state-history.js [--slices 100000] [--before DIR] [--cpu-prof DIR]
//   (--before: a built checkout of an earlier version, run instead of this one)
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { CLI, emulatorEnv, fmt, pipelineYaml, runNode, startEmulator } from "./harness.js";

const DAY_START = "2026-03-01T00:00:00Z";
const DAY_END = "2026-03-02T00:00:00Z";
const HOUR_MS = 3600_000;

function hourId(ms) {
  return new Date(ms)
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "");
}

/** Adds `count` committed one-hour slices, each with one file, ending where the day starts. */
function addHistory(state, count) {
  const end = Date.parse(DAY_START);
  for (let index = count; index >= 1; index--) {
    const start = end - index * HOUR_MS;
    const id = hourId(start);
    const rows = 400 + (index % 97);
    state.slices[id] = {
      start: new Date(start).toISOString(),
      end: new Date(start + HOUR_MS).toISOString(),
      committed_at: new Date(end).toISOString(),
      read: rows,
      expected: rows,
      duplicates: 0,
      files: [
        {
          sink: 0,
          path: `${id}-0001.ndjson`,
          rows,
          bytes: rows * 700,
          sha256: index.toString(16).padStart(64, "0"),
        },
      ],
    };
  }
}

/**
 * @param {{ slices: number, scratch: string, cli?: string, cpuProf?: string, log: (line: string) => void }} options
 */
export async function runStateHistory(options) {
  const cli = options.cli ?? CLI;
  const emulator = await startEmulator({ density: 20, latencyMs: 0, jitterMs: 0 });
  try {
    const env = emulatorEnv(emulator.url);
    const exportInto = async (name) => {
      const out = join(options.scratch, name);
      const file = join(options.scratch, `${name}.yaml`);
      writeFileSync(
        file,
        pipelineYaml({
          name: "state-history",
          kind: "jobs",
          appTypes: ["ec2"],
          start: DAY_START,
          end: DAY_END,
          strategy: "pit",
          pageSize: 1000,
          sink: { format: "ndjson" },
          out,
          concurrency: 4,
        }),
      );
      const prof = options.cpuProf === undefined ? [] : ["--cpu-prof", "--cpu-prof-dir", options.cpuProf];
      return { out, file, run: () => runNode(options.scratch, [...prof, cli, "run", file], { env }) };
    };

    const fresh = await exportInto("fresh");
    const freshRun = await fresh.run();
    options.log(
      `state-history fresh: ${fmt(freshRun.seconds, 2)} s, ${fmt(freshRun.cpuSeconds, 2)} s CPU, ${fmt(freshRun.peakRssMb)} MB`,
    );

    // The same pipeline (so the same fingerprint) into an output whose state holds a long history.
    const long = await exportInto("long");
    await long.run();
    const statePath = join(long.out, "_mdq-export", "state.json");
    const state = JSON.parse(readFileSync(statePath, "utf8"));
    state.slices = {};
    addHistory(state, options.slices);
    // Written as the version before the journal wrote its state (indented, no journal fields): the
    // run reads it as is.
    writeFileSync(statePath, `${JSON.stringify(state, null, 2)}\n`);
    const stateBytes = statSync(statePath).size;
    const longRun = await long.run();
    options.log(
      `state-history ${options.slices} slices: ${fmt(longRun.seconds, 2)} s, ${fmt(longRun.cpuSeconds, 2)} s CPU, ${fmt(longRun.peakRssMb)} MB`,
    );
    const after = JSON.parse(readFileSync(statePath, "utf8"));
    const committed = Object.keys(after.slices).length;
    if (committed !== options.slices + 24)
      throw new Error(`the state holds ${committed} slices after the run, not ${options.slices + 24}`);
    return {
      name: "state-history",
      how: `24 one-hour slices (jobs, point in time, NDJSON) into an output whose state holds ${options.slices} committed slices, beside the same run into a fresh output`,
      slices: options.slices,
      stateMb: stateBytes / 1e6,
      stateAfterMb: statSync(statePath).size / 1e6,
      fresh: { seconds: freshRun.seconds, cpuSeconds: freshRun.cpuSeconds, peakRssMb: freshRun.peakRssMb },
      history: { seconds: longRun.seconds, cpuSeconds: longRun.cpuSeconds, peakRssMb: longRun.peakRssMb },
    };
  } finally {
    await emulator.stop();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      slices: { type: "string", default: "100000" },
      before: { type: "string" },
      "cpu-prof": { type: "string" },
    },
  });
  const scratch = mkdtempSync(join(tmpdir(), "mdq-state-bench-"));
  try {
    const cli = values.before === undefined ? undefined : join(values.before, "dist", "cli", "main.js");
    const result = await runStateHistory({
      slices: Number(values.slices),
      scratch,
      cli,
      cpuProf: values["cpu-prof"],
      log: (line) => console.error(line),
    });
    console.log(JSON.stringify(result, null, 2));
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
