// The destinations of a pipeline as the commands that read them back (verify, merge-manifests) open
// them: every file or S3 sink in order, one at a time, closed after use. stdout keeps nothing to read.
import type { Pipeline } from "../config/pipeline-schema.js";
import type { SinkConfig } from "../sinks/schema.js";
import { destinationOf, openOutputStore } from "../sinks/open-output-store.js";
import type { OutputStore } from "../core/contracts.js";
import type { Manifest } from "./manifest-schema.js";
import { parseManifest } from "./manifest-schema.js";
import { newRunInfo } from "./prepare-run.js";

/** Whether the sink's destination keeps files (and so state and a manifest); a stream (stdout) does not. */
export function keepsFiles(sink: SinkConfig): boolean {
  return destinationOf(sink).stream !== true;
}

/**
 * @example
 * await forEachDestination(pipeline, async (store) => report(await readManifest(store, "_manifest.json")));
 */
export async function forEachDestination(
  pipeline: Pipeline,
  use: (store: OutputStore, sink: SinkConfig) => Promise<void>,
): Promise<void> {
  const run = newRunInfo(pipeline.name);
  for (const sink of pipeline.sinks) {
    if (!keepsFiles(sink)) continue;
    const store = await openOutputStore(sink, { run });
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
