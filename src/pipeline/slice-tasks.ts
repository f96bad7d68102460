// The work of each slice, built fresh for every attempt: the source the planner picked for it (with
// the batch tokens of an earlier attempt, so a batch export is not asked for and paid twice), the
// transform chain, and one sink per destination.
import type { Logger } from "../logger.js";
import { createSink, writesRowJson } from "../sinks/sink.js";
import { createFileJoin } from "../sinks/file-join.js";
import type { Column, OutputStore, RunInfo, Sink } from "../core/contracts.js";
import { conformSink } from "../warehouse/pipeline-schemas.js";
import type { ResolvedSinkSchema } from "../warehouse/pipeline-schemas.js";
import { createPartMerge } from "./merge-parts.js";
import type { PreparedRun } from "./prepare-run.js";
import { createSource, createTransformChain, FORMATS } from "../components/registry.js";
import { reportUnknownFields } from "./report-unknown-fields.js";
import type { SliceTask } from "./runner.js";
import type { StateStore } from "./state.js";
import type { WorkerPool } from "../core/worker-pool.js";

export interface SliceTaskDeps {
  prepared: PreparedRun;
  stores: readonly OutputStore[];
  state: StateStore;
  columns: readonly Column[];
  run: RunInfo;
  log: Logger;
  /** The slices to run (the plan's, narrowed by a re-check). */
  slices: PreparedRun["shardPlan"];
  /** Each sink's pinned schema: its files' columns, and how rows are renamed into them. */
  schemas: readonly ResolvedSinkSchema[];
  /** Committed slices to redo (a re-check found their count changed, or they are open). */
  redo: ReadonlySet<string>;
  /** Threads the sinks' encoders may use. */
  workers?: WorkerPool;
}

export function buildSliceTasks(deps: SliceTaskDeps): SliceTask[] {
  const { prepared, stores, state, run, log } = deps;
  const { pipeline, session } = prepared;
  const transform = createTransformChain(pipeline.transforms, { run });
  const sinks = (): Sink[] =>
    pipeline.sinks.map((sink, index): Sink => {
      const schema = deps.schemas[index];
      const columns = schema?.encoderColumns ?? deps.columns;
      const store = stores[index] as OutputStore;
      const created = createSink(sink, { store, columns, run, log, workers: deps.workers });
      return schema === undefined ? created : conformSink(created, schema);
    });
  const rowJson = pipeline.sinks.some((sink) => writesRowJson(sink, deps.workers));
  const columnsOf = (index: number): readonly Column[] => deps.schemas[index]?.encoderColumns ?? deps.columns;
  const merge = createPartMerge({
    sinks: pipeline.sinks,
    stores,
    columns: columnsOf,
    createSinks: sinks,
    joins: pipeline.sinks.map((sink, index) =>
      createFileJoin(sink, { store: stores[index] as OutputStore, columns: columnsOf(index), run, log }),
    ),
  });
  return deps.slices.map((slicePlan) => ({
    slice: slicePlan.slice,
    redo: deps.redo.has(slicePlan.slice.id),
    open: slicePlan.open,
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
        ...(pipeline.sinks.some((sink) => FORMATS[sink.format].columnar)
          ? [reportUnknownFields(deps.columns)]
          : []),
      ],
      sinks: sinks(),
      rowJson,
    }),
  }));
}
