// Everything `run` and `plan` share: load the pipeline, open the service, learn the output columns,
// and plan the slices of this run (or of this shard).
import { randomBytes } from "node:crypto";
import { loadPipeline } from "../config/load-pipeline.js";
import type { Pipeline } from "../config/pipeline-schema.js";
import { sliceWindow } from "../config/window.js";
import type { Logger } from "../logger.js";
import type { Column, RunInfo } from "../pipeline/contracts.js";
import { planRun } from "../pipeline/plan.js";
import type { Plan } from "../pipeline/plan.js";
import { selectShard, shardReserve } from "../pipeline/shard.js";
import type { Shard } from "../pipeline/shard.js";
import type { CliIO } from "./io.js";
import { outputColumns, sourceColumnsFromService } from "../pipeline/output-columns.js";
import { openSession } from "./session.js";
import type { Session } from "./session.js";

export interface PreparedRun {
  pipeline: Pipeline;
  session: Session;
  run: RunInfo;
  plan: Plan;
  /** The slices this process runs (all, or this shard's). */
  shardPlan: Plan["slices"];
  sourceColumns: Column[];
  columns: readonly Column[];
  shard: Shard | undefined;
  /** Whether this run re-checks committed slices; the plan then counted every slice. */
  rechecking: boolean;
}

export interface PrepareOptions {
  file: string;
  io: CliIO;
  log: Logger;
  overrides: { start?: string; end?: string };
  shard: Shard | undefined;
  /** Count every slice's records even when the plan needs no probe. */
  alwaysProbe?: boolean;
  /**
   * A run that may re-check: `--recheck` given, or the pipeline's `recheck.last_days` (then the plan
   * also counts that many days before the window's start).
   */
  recheck?: { requested: boolean };
}

export function newRunId(name: string, now: Date): string {
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");
  return `${name}-${stamp}-${randomBytes(3).toString("hex")}`;
}

/** Loads and plans; the caller closes `session`. Throws ConfigError before any request when the file is invalid. */
export async function prepareRun(options: PrepareOptions): Promise<PreparedRun> {
  const { io, log } = options;
  const pipeline = await loadPipeline(options.file, {
    env: io.env,
    overrides: options.overrides,
    onWarning: (issue) => log.warn({ path: issue.path, line: issue.line }, issue.message),
  });
  const startedAt = new Date();
  const run: RunInfo = { pipelineName: pipeline.name, runId: newRunId(pipeline.name, startedAt), startedAt };
  const session = await openSession(pipeline.service, {
    log,
    quotaReserve: shardReserve(pipeline.limits.quota_reserve, options.shard, pipeline.limits.concurrency),
  });
  const rechecking =
    options.recheck !== undefined && (options.recheck.requested || pipeline.recheck.last_days > 0);
  const recheckMs = rechecking ? pipeline.recheck.last_days * 86_400_000 : 0;
  try {
    const sourceColumns = await sourceColumnsFromService(session.client, pipeline.source, io.signal);
    const columns = outputColumns(pipeline.transforms, sourceColumns);
    const plan = await planRun({
      client: session.client,
      query: pipeline.source,
      window: {
        ...pipeline.source.window,
        start: new Date(pipeline.source.window.start.getTime() - recheckMs),
      },
      sliceWindow: (start, end, sliceMs) => sliceWindow(start, end, sliceMs),
      alwaysProbe: options.alwaysProbe === true || rechecking,
      signal: io.signal,
    });
    const shardPlan = selectShard(
      plan.slices.map((slicePlan) => ({ ...slicePlan, index: slicePlan.slice.index })),
      options.shard,
    );
    return {
      pipeline,
      session,
      run,
      plan,
      shardPlan,
      sourceColumns,
      columns,
      shard: options.shard,
      rechecking,
    };
  } catch (error) {
    await session.close();
    throw error;
  }
}
