// The work of each slice, built fresh for every attempt: the source the planner picked for it (with
// the batch tokens of an earlier attempt, so a batch export is not asked for and paid twice), the
// transform chain, and one sink per destination.
import type { PreparedRun } from "./prepare-run.js";
import { createSource, createTransformChain } from "../../components/registry.js";
import { reportUnknownFields } from "./report-unknown-fields.js";
import { recordRequest } from "./record-request.js";
import type { SliceTask } from "./runner.js";
import type { StateStore } from "../output-state/state.js";
import type { SinkRuntime } from "./sink-runtime.js";
import type { SlicesToRun } from "./slices-to-run.js";

interface SliceTaskDeps {
  /** The run as prepared: its pipeline, session, run and the columns rows carry after the transforms. */
  prepared: PreparedRun;
  /** The run's sinks, in the pipeline's order. */
  sinks: readonly SinkRuntime[];
  state: StateStore;
  /** The slices to run (the plan's, narrowed by a re-check) and the committed ones among them to redo. */
  toRun: Pick<SlicesToRun, "slices" | "redo">;
}

export function buildSliceTasks(deps: SliceTaskDeps): SliceTask[] {
  const { prepared, sinks, state, toRun } = deps;
  const { pipeline, session, components, run, columns } = prepared;
  const transform = createTransformChain(components.transforms, pipeline.transforms, { run });
  const records = recordRequest(sinks, pipeline.transforms.length, columns);
  return toRun.slices.map((slicePlan) => ({
    slice: slicePlan.slice,
    redo: toRun.redo.has(slicePlan.slice.id),
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
              tokens: state.batchProgress(slicePlan.slice.id)?.tokens ?? {},
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
        ...(sinks.some((sink) => sink.format.columnar) ? [reportUnknownFields(columns)] : []),
      ],
      sinks: sinks.map((sink) => sink.createSink()),
      records: records(),
    }),
  }));
}
