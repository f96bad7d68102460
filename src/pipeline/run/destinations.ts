// The destinations of a pipeline as the commands that read them back (verify, merge-manifests) open
// them: every sink whose destination keeps files, in order, one at a time, closed after use. A stream
// (stdout) keeps nothing to read.
import type { Components } from "../../components/environment.js";
import type { Pipeline } from "../../config/pipeline-schema.js";
import type { SinkConfig } from "../../sinks/schema.js";
import { destinationOf, openOutputStore } from "../../sinks/open-output-store.js";
import type { DestinationTable } from "../../sinks/open-output-store.js";
import type { OutputStore } from "../../core/contracts.js";
import type { Manifest } from "../records/manifest-schema.js";
import { parseManifest } from "../records/manifest-schema.js";
import { newRunInfo } from "./prepare-run.js";

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
