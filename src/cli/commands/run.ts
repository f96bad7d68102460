// `mdq-export run PIPELINE`: export the window, slice by slice, resuming what an earlier run committed.
import { ConfigError, QuotaExhaustedError } from "../../errors.js";
import { createLogger } from "../../logger.js";
import type { Logger } from "../../logger.js";
import type { OutputStore, Sink } from "../../pipeline/contracts.js";
import { fingerprintOf } from "../../pipeline/fingerprint.js";
import {
  buildManifest,
  manifestObjectPath,
  successMarkerPath,
  writeManifest,
} from "../../pipeline/manifest.js";
import { createSource, createTransformChain } from "../../pipeline/registry.js";
import { reportUnknownFields } from "../../pipeline/report-unknown-fields.js";
import { runSlices } from "../../pipeline/runner.js";
import type { RunOutcome, SliceTask } from "../../pipeline/runner.js";
import { resolveShard } from "../../pipeline/shard.js";
import type { Shard } from "../../pipeline/shard.js";
import { StateStore, stateObjectPath } from "../../pipeline/state.js";
import { openOutputStore, sinkIdentity } from "../../sinks/open-output-store.js";
import { createSink } from "../../sinks/sink.js";
import { createPartMerge } from "../../pipeline/merge-parts.js";
import { conformSink, pinSchemas, resolvePipelineSchemas } from "../../warehouse/pipeline-schemas.js";
import { describeChange } from "../../warehouse/schema-drift.js";
import { formatRecheck, recheckCommitted } from "../../warehouse/recheck.js";
import type { ChangedSlice } from "../../warehouse/recheck.js";
import {
  PIPELINE_OPTIONS,
  parseCommandArgs,
  parseLogLevel,
  requirePipelineFile,
  windowOverrides,
} from "../command-options.js";
import { EXIT } from "../io.js";
import type { Command } from "../io.js";
import { prepareRun } from "../prepare-run.js";
import type { PreparedRun } from "../prepare-run.js";
import { startProgress } from "../progress.js";
import { formatRunSummary } from "../run-summary.js";

export const RUN_USAGE = `Usage: mdq-export run PIPELINE.yaml [options]

Exports the pipeline's window. Committed slices of an earlier run are skipped (resume).

Options:
  --start TIME        replace the window's start (ISO 8601, date-math such as now-7d/d, or yesterday)
  --end TIME          replace the window's end
  --force             redo every slice, even committed ones or after the pipeline changed
  --recheck           re-count the committed slices with one date histogram and export again
                      those whose count changed (late data); with recheck.last_days also the
                      days before the window
  --shard I/N         run shard I of N (every N-th slice); see also --shard-count
  --shard-count N     the number of shards, with the index from JOB_COMPLETION_INDEX or
                      AWS_BATCH_JOB_ARRAY_INDEX (or MDQ_SHARD_COUNT)
  --log-level LEVEL   trace, debug, info, warn, error, silent (default: info; warn on a terminal)
  --debug             print the cause chain of an error
  -h, --help          show this help

Exit codes: 0 done, 1 failed, 2 invalid pipeline or arguments, 75 stopped but resumable.`;

const RUN_OPTIONS = {
  ...PIPELINE_OPTIONS,
  force: { type: "boolean" },
  recheck: { type: "boolean" },
  shard: { type: "string" },
  "shard-count": { type: "string" },
} as const;

/** What decides whether files already written belong to this export; the window is not part of it. */
function outputFingerprint(prepared: PreparedRun): string {
  const { source, transforms, sinks, name } = prepared.pipeline;
  const { window: _window, ...query } = source;
  return fingerprintOf({ name, query, transforms, sinks: sinks.map(sinkIdentity) });
}

/**
 * A process killed mid-slice leaves hidden temporary files. They are this run's to remove when they
 * belong to a slice it is about to redo, or to the state and manifest it writes; leftovers of other
 * shards' slices are theirs (they may be running right now).
 */
async function removeLeftovers(
  stores: readonly OutputStore[],
  slices: PreparedRun["shardPlan"],
  state: StateStore,
  shard: Shard | undefined,
  log: Logger,
  rechecked: ReadonlySet<string>,
): Promise<void> {
  const redo = slices
    .map((plan) => plan.slice.id)
    .filter((id) => !state.isCommitted(id) || rechecked.has(id));
  const own = new Set([stateObjectPath(shard), manifestObjectPath(shard), successMarkerPath(shard)]);
  const owns = (path: string): boolean => own.has(path) || redo.some((id) => path.includes(id));
  for (const store of stores) {
    const removed = (await store.removeLeftovers?.(owns)) ?? [];
    if (removed.length > 0)
      log.info(
        { to: store.location, files: removed.length },
        "Removed temporary files an interrupted run left.",
      );
  }
}

export const runCommand: Command = async (argv, io) => {
  const { values, positionals } = parseCommandArgs(argv, RUN_OPTIONS, RUN_USAGE);
  if (values.help === true) {
    io.stdout.write(`${RUN_USAGE}\n`);
    return EXIT.ok;
  }
  const file = requirePipelineFile(positionals, RUN_USAGE);
  // Log lines go to the command's stderr, so an in-process caller (tests, an embedding tool) gets them too.
  const log = createLogger({
    level: parseLogLevel(values["log-level"], io.isTTY ? "warn" : "info"),
    destination: io.stderr,
  });
  const shard = resolveShard(values.shard, values["shard-count"], io.env);
  const prepared = await prepareRun({
    file,
    io,
    log,
    overrides: windowOverrides(values),
    shard,
    recheck: { requested: values.recheck === true },
  });
  const { pipeline, session, run, rechecking } = prepared;
  // The window's own slices; those before it are in the plan only to be re-checked.
  let shardPlan = prepared.shardPlan.filter(
    (plan) => plan.slice.start.getTime() >= pipeline.source.window.start.getTime(),
  );
  const stores: OutputStore[] = [];
  try {
    const estimate = shardPlan.reduce((sum, slice) => sum + slice.requests, 0);
    const max = pipeline.limits.max_requests;
    if (max !== undefined && estimate > max) {
      const message = `the plan needs about ${estimate} requests, more than limits.max_requests (${max}); narrow the window or raise the limit`;
      throw new ConfigError(message, [{ path: "limits.max_requests", message }]);
    }
    const quotaLeft = prepared.plan.quotaRemaining;
    if (quotaLeft !== undefined && estimate > quotaLeft - pipeline.limits.quota_reserve) {
      log.warn(
        { estimate, quota_remaining: quotaLeft, quota_reserve: pipeline.limits.quota_reserve },
        "The plan needs more requests than the quota leaves above the reserve; the run will stop there and resume later.",
      );
    }
    for (const sink of pipeline.sinks) stores.push(await openOutputStore(sink, { run, stdout: io.stdout }));
    // Drift is decided before anything is written: a refused change fails the run here.
    const schemas = await resolvePipelineSchemas({
      pipeline,
      pipelineFile: file,
      sourceColumns: prepared.sourceColumns,
      stores,
    });
    for (const schema of schemas)
      for (const change of schema.changes)
        log.warn({ sink: schema.where, change: change.change }, `Schema drift: ${describeChange(change)}.`);
    // State lives beside the first sink's output; a stdout-only pipeline keeps none and always redoes.
    const stateStore =
      stores.find((_, index) => pipeline.sinks[index]?.to !== "-") ?? (stores[0] as OutputStore);
    const state = await StateStore.open({
      store: stateStore,
      path: stateObjectPath(shard),
      pipeline: pipeline.name,
      fingerprint: outputFingerprint(prepared),
      force: values.force === true,
    });
    let changed: ChangedSlice[] = [];
    if (rechecking) {
      const recheck = await recheckCommitted({
        slices: prepared.shardPlan,
        windowStart: pipeline.source.window.start,
        state,
        runId: run.runId,
        log,
        force: values.force === true,
      });
      shardPlan = recheck.slices;
      changed = recheck.changed;
    }
    const redo = new Set(changed.map((change) => change.slice.id));
    await removeLeftovers(stores, shardPlan, state, shard, log, redo);
    log.info(
      {
        pipeline: pipeline.name,
        run_id: run.runId,
        service: session.describe,
        slices: shardPlan.length,
        expected: prepared.plan.expectedRecords,
        requests: prepared.plan.estimatedRequests,
      },
      "Run started.",
    );
    const transform = createTransformChain(pipeline.transforms, { run });
    const sinks = (): Sink[] =>
      pipeline.sinks.map((sink, index): Sink => {
        const schema = schemas[index];
        const columns = schema?.encoderColumns ?? prepared.columns;
        const created = createSink(sink, { store: stores[index] as OutputStore, columns, run, log });
        return schema === undefined ? created : conformSink(created, schema);
      });
    const merge = createPartMerge({
      sinks: pipeline.sinks,
      stores,
      columns: (index) => schemas[index]?.encoderColumns ?? prepared.columns,
      createSinks: sinks,
    });
    const tasks: SliceTask[] = shardPlan.map((slicePlan) => ({
      slice: slicePlan.slice,
      redo: redo.has(slicePlan.slice.id),
      merge: () => merge,
      build: () => ({
        source: createSource(pipeline.source, slicePlan.retrieval, {
          client: session.client,
          batch: {
            resume: {
              tokens: state.batchTokens(slicePlan.slice.id),
              onToken: (request, token) => state.recordBatchToken(slicePlan.slice.id, request, token),
            },
            pollDeadlineMs: pipeline.service.timeouts.batch_export_ms,
          },
        }),
        transforms: [
          ...(pipeline.transforms.length > 0 ? [transform] : []),
          // Only columnar files drop a field that has no column; NDJSON writes every field.
          ...(pipeline.sinks.some((sink) => sink.format === "parquet")
            ? [reportUnknownFields(prepared.columns)]
            : []),
        ],
        sinks: sinks(),
      }),
    }));

    let records = 0;
    let slicesDone = tasks.filter((task) => state.isCommitted(task.slice.id)).length;
    const started = Date.now();
    const progress = startProgress(
      () => ({
        records,
        slicesDone,
        slicesTotal: tasks.length,
        expectedRecords: prepared.plan.expectedRecords,
        quotaRemaining: session.client.quota.snapshot().remaining,
        elapsedMs: Date.now() - started,
      }),
      { tty: io.isTTY, stream: io.stderr, log },
    );
    let outcome: RunOutcome;
    try {
      outcome = await runSlices({
        tasks,
        concurrency: pipeline.limits.concurrency,
        maxAttemptsPerSlice: pipeline.limits.max_retries_per_slice + 1,
        state,
        stores,
        run,
        log,
        signal: io.signal,
        events: {
          sliceCommitted: (slice, result) => {
            records += result.read;
            slicesDone++;
            log.debug({ slice: slice.id, read: result.read, expected: result.expected }, "Slice committed.");
          },
        },
      });
    } finally {
      progress.stop();
    }
    const complete = tasks.every((task) => state.state.slices[task.slice.id] !== undefined);
    for (const [index, store] of stores.entries()) {
      const sink = pipeline.sinks[index];
      if (sink === undefined || sink.to === "-") continue;
      const manifest = buildManifest({
        state: state.state,
        sinkIndex: index,
        runId: run.runId,
        destination: store.location,
        format: sink.format,
        window: pipeline.source.window,
        complete,
        now: new Date(),
      });
      await writeManifest(store, { ...manifest, schema: schemas[index]?.columns }, shard);
    }
    // The first successful run pins the schema; a later one records what the policy changed.
    if (outcome.status === "complete") await pinSchemas(pipeline, schemas, stores);
    const summary = formatRunSummary({
      pipeline,
      outcome,
      state: state.state,
      stores,
      manifestPath: manifestObjectPath(shard),
      records,
      elapsedMs: Date.now() - started,
      shard,
    });
    // stdout carries data when a sink writes to it; the summary then goes to stderr.
    const recheckLines = rechecking ? formatRecheck(changed) : "";
    (pipeline.sinks.some((sink) => sink.to === "-") ? io.stderr : io.stdout).write(summary + recheckLines);
    if (outcome.status === "complete") {
      log.info({ run_id: run.runId, records, slices: tasks.length }, "Run complete.");
      return EXIT.ok;
    }
    if (outcome.status === "stopped") {
      const quota = outcome.error instanceof QuotaExhaustedError;
      log.warn(
        {
          remaining_slices: outcome.remaining,
          reason: outcome.error instanceof Error ? outcome.error.message : String(outcome.error),
        },
        quota
          ? "Run stopped at the quota reserve; run the same command after the daily quota resets to resume."
          : "Run stopped; run the same command again to resume.",
      );
      return EXIT.resumable;
    }
    throw outcome.error;
  } finally {
    for (const store of stores) await store.close().catch(() => undefined);
    await session.close();
  }
};
