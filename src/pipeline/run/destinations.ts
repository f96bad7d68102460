// The destinations of a pipeline as the commands that read them back (verify, merge-manifests) open
// them: every sink whose destination keeps files, in order, one at a time, closed after use. A stream
// (stdout) keeps nothing to read.
import type { Components } from "../../components/environment.js";
import type { Pipeline } from "../../config/pipeline-schema.js";
import type { SinkConfig } from "../../sinks/sink-config.js";
import { destinationOf, openOutputStore } from "../../sinks/open-output-store.js";
import type { DestinationTable } from "../../sinks/open-output-store.js";
import type { OutputStore } from "../../core/contracts.js";
import type { Manifest } from "../output-state/manifest-schema.js";
import { parseManifest } from "../output-state/manifest-schema.js";
import { newRunInfo } from "./prepare-run.js";
import type { PreparedRun } from "./prepare-run.js";
import { earlierOutputFingerprints, outputFingerprint } from "./fingerprint.js";
import { windowSlices } from "./slices-to-run.js";
import { StateStore } from "../output-state/state.js";
import { stateObjectPath } from "../output-state/state-files.js";
import { checkOutputOwner } from "../output-state/state-owner.js";
import type { StateOptionsBeforePlan } from "../output-state/state-open.js";
import type { Shard } from "../plan/shard.js";
import { isSnapshotWindow } from "../plan/plan.js";

/** Whether the sink's destination keeps files (and so state and a manifest); a stream (stdout) does not. */
export function keepsFiles(sink: SinkConfig, destinations: DestinationTable): boolean {
  return destinationOf(sink, destinations).stream !== true;
}

/**
 * @example
 * await forEachDestination(pipeline, components, async (store) => report(await readManifest(store, "_manifest.json")));
 */
export async function forEachDestination(
  pipeline: Pipeline,
  components: Components,
  use: (store: OutputStore, sink: SinkConfig) => Promise<void>,
): Promise<void> {
  const run = newRunInfo(pipeline.name);
  for (const sink of pipeline.sinks) {
    if (!keepsFiles(sink, components.destinations)) continue;
    const store = await openOutputStore(sink, { run }, components.destinations);
    try {
      await use(store, sink);
    } finally {
      await store.close();
    }
  }
}

/** The manifest at `path`, checked against its schema, or undefined when the destination has none. */
export async function readManifest(store: OutputStore, path: string): Promise<Manifest | undefined> {
  const bytes = await store.getObject(path);
  if (bytes === undefined) return undefined;
  return parseManifest(Buffer.from(bytes).toString("utf8"), `${store.location}/${path}`);
}

/**
 * Throws OUTPUT_OWNED when a sink's destination holds another pipeline's output, for a command that
 * holds no stores (`plan`): each destination that keeps files opened in turn.
 */
export async function checkOwnedDestinations(
  prepared: Pick<PreparedRun, "pipeline" | "components" | "shard">,
): Promise<void> {
  const { pipeline, components } = prepared;
  await forEachDestination(pipeline, components, (store) =>
    checkOutputOwner(store, pipeline.name, prepared.shard),
  );
}

/** Where a pipeline's state is, and which slices it holds as committed. */
export interface CommittedSlices {
  /** The destination whose `_mdq-export/` holds the state. */
  location: string;
  isCommitted(sliceId: string): boolean;
}

/**
 * Which slices earlier runs committed, read from the state as a run without --force reads it (beside
 * the first sink that keeps files), without writing anything or taking the lock: what `plan` shows.
 * Undefined when no sink keeps files (stdout only): such a pipeline keeps no state. Throws the run's
 * own errors when an output belongs to another pipeline, or the state to another slice grid.
 */
export async function committedInOutput(
  prepared: Pick<PreparedRun, "pipeline" | "components" | "shardPlan" | "shard">,
): Promise<CommittedSlices | undefined> {
  const { pipeline, components } = prepared;
  await checkOwnedDestinations(prepared);
  const sink = pipeline.sinks.find((candidate) => keepsFiles(candidate, components.destinations));
  if (sink === undefined) return undefined;
  const store = await openOutputStore(sink, { run: newRunInfo(pipeline.name) }, components.destinations);
  try {
    const isCommitted = await StateStore.peekCommitted({
      ...stateOptionsBeforePlan(prepared, store, { shard: prepared.shard, force: false }),
      planned: windowSlices(prepared).map((plan) => plan.slice),
    });
    return { location: store.location, isCommitted };
  } finally {
    await store.close();
  }
}

/**
 * How a run opens (or peeks at) its state in `store`: the state's path for the shard, the pipeline's
 * fingerprint (and those earlier versions wrote), and the window a --force redoes (what is committed
 * outside stays). All of it comes from the parsed pipeline, so a run checks its state with it before it
 * asks the service anything (`checkStateBeforePlan`); the window's planned slices are added to open it.
 */
export function stateOptionsBeforePlan(
  parsed: Pick<PreparedRun, "pipeline" | "components">,
  store: OutputStore,
  run: { shard: Shard | undefined; force: boolean },
): StateOptionsBeforePlan {
  const { pipeline, components } = parsed;
  return {
    store,
    path: stateObjectPath(run.shard),
    pipeline: pipeline.name,
    fingerprint: outputFingerprint(pipeline, components.destinations),
    earlierFingerprints: earlierOutputFingerprints(pipeline, components.destinations),
    force: run.force,
    forceWindow: pipeline.source.window,
    snapshot: isSnapshotWindow(pipeline.source),
  };
}
