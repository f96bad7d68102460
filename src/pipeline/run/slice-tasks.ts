// The work of each slice, built fresh for every attempt: the source the planner picked for it (with
// the batch tokens of an earlier attempt, so a batch export is not asked for and paid twice), the
// transform chain, and one sink per destination.
import { writesRowJson } from "../../sinks/sink.js";
import type { Column, RunInfo, Sink } from "../../core/contracts.js";
import type { HitBytesReader } from "../../core/hit-reader.js";
import { createPartMerge } from "./merge-parts.js";
import type { PreparedRun } from "./prepare-run.js";
import { createSource, createTransformChain } from "../../components/registry.js";
import { reportUnknownFields } from "./report-unknown-fields.js";
import type { SliceTask } from "./runner.js";
import type { StateStore } from "../output-state/state.js";
import type { SinkRuntime } from "./sink-runtime.js";
import { readsOnlyRowJson, takesColumnValues } from "./sink-runtime.js";
import { createTakenColumnsReader } from "../../formats/taken-columns.js";
import { createSpliceReader } from "../../decoding/splice-reader.js";

export interface SliceTaskDeps {
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
  const rowJson = sinks.some((sink) => writesRowJson(sink.config, sink.format));
  // Nothing reads a record's fields: its hits are checked and spliced from their bytes, never parsed.
  const splicesOnly = pipeline.transforms.length === 0 && sinks.every((sink) => readsOnlyRowJson(sink));
  // One sink that reads column values, whose columns are the fields the unknown-field report knows:
  // its values are taken from the hits' bytes, never parsed.
  const [only] = sinks;
  const takesColumns =
    pipeline.transforms.length === 0 &&
    sinks.length === 1 &&
    only !== undefined &&
    takesColumnValues(only) &&
    sameNames(only.columns, deps.columns);
  const hitReader = (): HitBytesReader | undefined =>
    splicesOnly
      ? createSpliceReader()
      : takesColumns && only !== undefined
        ? createTakenColumnsReader(only.columns)
        : undefined;
  const merge = createPartMerge(sinks);
  return deps.slices.map((slicePlan) => ({
    slice: slicePlan.slice,
    redo: deps.redo.has(slicePlan.slice.id),
    open: slicePlan.open,
    merge: () => merge,
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
      rowJson,
      hitReader: hitReader(),
    }),
  }));
}

/** Whether two column lists hold the same names, whatever their order. */
function sameNames(left: readonly Column[], right: readonly Column[]): boolean {
  if (left.length !== right.length) return false;
  const names = new Set(left.map((column) => column.name));
  return right.every((column) => names.has(column.name));
}
