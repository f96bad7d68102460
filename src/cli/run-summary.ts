// The few lines a run prints when it ends: what it exported, where, and what is left.
import type { Pipeline } from "../config/pipeline-schema.js";
import type { OutputStore } from "../pipeline/contracts.js";
import type { RunOutcome } from "../pipeline/runner.js";
import type { Shard } from "../pipeline/shard.js";
import type { RunState } from "../pipeline/state.js";

export interface RunSummaryInput {
  pipeline: Pipeline;
  outcome: RunOutcome;
  state: Readonly<RunState>;
  stores: readonly OutputStore[];
  manifestPath: string;
  records: number;
  elapsedMs: number;
  shard: Shard | undefined;
}

function megabytes(bytes: number): string {
  return `${(bytes / 1_000_000).toFixed(bytes < 10_000_000 ? 2 : 1)} MB`;
}

export function formatRunSummary(input: RunSummaryInput): string {
  const { outcome, pipeline } = input;
  const seconds = input.elapsedMs / 1000;
  const rate = seconds > 0 ? Math.round(input.records / seconds) : 0;
  const shard = input.shard === undefined ? "" : ` (shard ${input.shard.index}/${input.shard.count})`;
  const status =
    outcome.status === "complete"
      ? "complete"
      : outcome.status === "stopped"
        ? "stopped, resumable"
        : "failed";
  const lines = [
    `${pipeline.name}${shard}: ${status} — ${outcome.committed} slices exported, ${outcome.skipped} already done, ` +
      `${outcome.remaining} left; ${input.records.toLocaleString("en-US")} records in ${seconds.toFixed(1)}s (${rate.toLocaleString("en-US")} rec/s)`,
  ];
  for (const [index, store] of input.stores.entries()) {
    const sink = pipeline.sinks[index];
    if (sink === undefined) continue;
    if (sink.to === "-") {
      lines.push(`  ${sink.format} → stdout`);
      continue;
    }
    const files = Object.values(input.state.slices).flatMap((slice) =>
      slice.files.filter((file) => file.sink === index),
    );
    const rows = files.reduce((sum, file) => sum + file.rows, 0);
    const bytes = files.reduce((sum, file) => sum + file.bytes, 0);
    lines.push(
      `  ${sink.format}${sink.gzip ? " (gzip)" : ""} → ${store.location}: ${files.length} files, ${rows.toLocaleString("en-US")} rows, ${megabytes(bytes)}; manifest ${store.location}/${input.manifestPath}`,
    );
  }
  return `${lines.join("\n")}\n`;
}
