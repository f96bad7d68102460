// The harness both Parquet writer benchmarks share: each writer runs in a child process of its own
// (so its peak RSS is its own), reports wall time, CPU time, peak RSS and file size, and the parent
// prints one markdown row per writer.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** In the child: runs one writer into `file` and prints its figures as JSON on stdout. */
export async function measureWriter(write, file) {
  const started = process.hrtime.bigint();
  const cpuStart = process.cpuUsage();
  await write(file);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const cpu = process.cpuUsage(cpuStart);
  process.stdout.write(
    JSON.stringify({
      seconds,
      cpuSeconds: (cpu.user + cpu.system) / 1e6,
      peakRssMb: process.resourceUsage().maxRSS / 1024,
      bytes: statSync(file).size,
    }),
  );
}

/**
 * In the parent: runs `script --child NAME FILE ...args` for each writer name and prints the table.
 * parquetjs-lite runs only when PARQUETJS_LITE points at an installed copy (it is not a dependency).
 */
export function compareWriters({ script, names, rows, args, tempPrefix }) {
  const chosen = names.filter((name) => name !== "parquetjs-lite" || process.env.PARQUETJS_LITE);
  const dir = mkdtempSync(join(tmpdir(), tempPrefix));
  console.log("| writer | rows/s | CPU s | peak RSS MB | file MB |");
  console.log("|---|---:|---:|---:|---:|");
  try {
    for (const [index, name] of chosen.entries()) {
      const file = join(dir, `${index}.parquet`);
      const result = JSON.parse(
        execFileSync(process.execPath, [script, "--child", name, file, ...args], { encoding: "utf8" }),
      );
      console.log(
        `| ${name} | ${Math.round(rows / result.seconds).toLocaleString("en")} | ${result.cpuSeconds.toFixed(2)} | ${result.peakRssMb.toFixed(0)} | ${(result.bytes / 1e6).toFixed(1)} |`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
