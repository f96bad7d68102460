// The work of each slice, built fresh for every attempt: the source the planner picked for it (with
// the batch tokens of an earlier attempt, so a batch export is not asked for and paid twice), the
// transform chain, and one sink per destination.
import type { Column, RunInfo, Sink } from "../../core/contracts.js";
import type { PreparedRun } from "./prepare-run.js";
import { createSource, createTransformChain } from "../../components/registry.js";
import { reportUnknownFields } from "./report-unknown-fields.js";
import { recordRequest } from "./record-request.js";
import type { SliceTask } from "./runner.js";
import type { StateStore } from "../output-state/state.js";
import type { SinkRuntime } from "./sink-runtime.js";

interface SliceTaskDeps {
  prepared: PreparedRun;
  /** The run's sinks, in the pipeline's order. */
  sinks: readonly SinkRuntime[];
  state: StateStore;
  /** The columns rows carry after the transforms, for the report of fields no column holds. */
  columns: readonly Column[];
  run: RunInfo;
  /** The slices to run (the plan's, narrowed by a re-check). */
  slices: PreparedRun["shardPlan"];
  /** Committed slices to redo (a re-check found their count changed, or they are open). */
  redo: ReadonlySet<string>;
}

export function buildSliceTasks(deps: SliceTaskDeps): SliceTask[] {
  const { prepared, sinks, state, run } = deps;
  const { pipeline, session, components } = prepared;
  const transform = createTransformChain(components.transforms, pipeline.transforms, { run });
  const createSinks = (): Sink[] => sinks.map((sink) => sink.createSink());
  const records = recordRequest(sinks, pipeline.transforms.length, deps.columns);
  return deps.slices.map((slicePlan) => ({
    slice: slicePlan.slice,
    redo: deps.redo.has(slicePlan.slice.id),
    open: slicePlan.open,
    merge: sinks,
    build: () => ({
      source: createSource(
        pipeline.source,
        slicePlan.retrieval,
        {
          client: session.client,
          batch: {
            resume: {
              tokens: state.batchTokens(slicePlan.slice.id),
              onToken: (request, token) => state.recordBatchToken(slicePlan.slice.id, request, token),
            },
            pollDeadlineMs: pipeline.service.timeouts.batch_export_ms,
          },
        },
        components.kinds,
      ),
      transforms: [
        ...(pipeline.transforms.length > 0 ? [transform] : []),
        // Only columnar files drop a field that has no column; NDJSON writes every field.
        ...(sinks.some((sink) => sink.format.columnar) ? [reportUnknownFields(deps.columns)] : []),
      ],
      sinks: createSinks(),
      records: records(),
    }),
  }));
}
