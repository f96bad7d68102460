// What a run of a pipeline reports when it ends: its status and counts, every slice of this run
// (or shard), and what each destination holds (with its manifest). The CLI prints it and maps it
// to an exit code; observers (metrics, run reports) read the same record.
import type { ChangedSlice } from "../output-state/recheck.js";
import type { OpenedSink } from "./sink-runtime.js";
import type { Plan } from "../plan/plan.js";
import type { RunOutcome } from "./runner.js";
import type { Shard } from "../plan/shard.js";
import type { RunState } from "../output-state/state-schema.js";

/** One slice of the run: committed now, skipped (committed by an earlier run), or left to do. */
export interface SliceResult {
  id: string;
  start: string;
  end: string;
  status: "committed" | "skipped" | "pending";
  /** Written while the service may still be indexing it: redone by the next run until it settles. */
  open: boolean;
  /** Records read from the service (for a skipped slice, what the earlier run read). */
  read: number;
  expected: number | null;
  rows: number;
  /** Attempts this run made at the slice; 0 for a skipped slice. */
  attempts: number;
}

/** One sink of the pipeline and what its destination holds now (every committed slice's files). */
export interface DestinationResult {
  /** `./out/jobs`, `s3://bucket/prefix`, or `-` for stdout. */
  location: string;
  format: string;
  gzip: boolean;
  /** A stream (stdout): nothing kept, no manifest. */
  stream: boolean;
  files: number;
  rows: number;
  bytes: number;
  /** Lone surrogates its files hold as U+FFFD (each file's `replaced_surrogates`). */
  replacedSurrogates: number;
  /** The manifest this run wrote for this destination (`LOCATION/PATH`); none for stdout, or when none was written. */
  manifest: string | undefined;
}

export interface PipelineOutcome extends RunOutcome {
  pipeline: string;
  /** A re-checking run: the committed slices whose count changed and were exported again. */
  rechecked: readonly ChangedSlice[] | undefined;
  /** A re-checking run: committed slices the service now counts fewer records in, whose files were kept. */
  decreased?: readonly ChangedSlice[] | undefined;
  runId: string;
  shard: Shard | undefined;
  /** Records read by the slices this run committed. */
  records: number;
  elapsedMs: number;
  slices: SliceResult[];
  destinations: DestinationResult[];
}

/** What the state the run left says of one slice of the run (or shard). */
function sliceResult(
  slicePlan: Plan["slices"][number],
  state: Readonly<RunState>,
  run: { committedNow: ReadonlySet<string>; attempts: ReadonlyMap<string, number> },
): SliceResult {
  const { slice } = slicePlan;
  const committed = state.slices[slice.id];
  return {
    id: slice.id,
    start: slice.start.toISOString(),
    end: slice.end.toISOString(),
    status: committed === undefined ? "pending" : run.committedNow.has(slice.id) ? "committed" : "skipped",
    open: committed?.open === true,
    read: committed?.read ?? 0,
    expected: committed?.expected ?? slicePlan.expected ?? null,
    rows: (committed?.files ?? []).reduce((sum, file) => sum + file.rows, 0),
    attempts: run.attempts.get(slice.id) ?? 0,
  };
}

/**
 * What a sink's destination holds now, by the state the run left; `manifestPath` is its manifest's,
 * when this run wrote it (a run that lost its lock at the end writes none).
 */
function destinationResult(
  sink: OpenedSink,
  state: Readonly<RunState>,
  manifestPath: string | undefined,
): DestinationResult {
  const { index, config, store } = sink;
  const stream = !sink.keepsFiles;
  const files = stream
    ? []
    : Object.values(state.slices).flatMap((slice) => slice.files.filter((file) => file.sink === index));
  return {
    location: store.location,
    format: config.format,
    gzip: config.gzip === true,
    files: files.length,
    rows: files.reduce((sum, file) => sum + file.rows, 0),
    bytes: files.reduce((sum, file) => sum + file.bytes, 0),
    replacedSurrogates: files.reduce((sum, file) => sum + (file.replaced_surrogates ?? 0), 0),
    stream,
    manifest: stream || manifestPath === undefined ? undefined : `${store.location}/${manifestPath}`,
  };
}

/** Slices and destinations of the outcome, from the state the run left. */
export function describeOutcome(
  slices: Plan["slices"],
  sinks: readonly OpenedSink[],
  state: Readonly<RunState>,
  run: {
    committedNow: ReadonlySet<string>;
    attempts: ReadonlyMap<string, number>;
    manifestPath: string;
    manifestsWritten: ReadonlySet<number>;
  },
): Pick<PipelineOutcome, "slices" | "destinations"> {
  return {
    slices: slices.map((slicePlan) => sliceResult(slicePlan, state, run)),
    destinations: sinks.map((sink) =>
      destinationResult(sink, state, run.manifestsWritten.has(sink.index) ? run.manifestPath : undefined),
    ),
  };
}
