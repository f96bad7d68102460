// One sink of a run with everything the run holds for it: its section of the pipeline, its open
// store, its pinned schema and columns, its file join and a factory of fresh sinks. Stages take these
// objects instead of indexes into lists kept side by side. The state and the manifests name a file's
// sink by its position in the pipeline, which each of these objects carries as `index`.
import type { Writable } from "node:stream";
import type { Logger } from "../../logger.js";
import type { Column, OutputStore, RunInfo, Sink } from "../../core/contracts.js";
import { formatOf } from "../../components/environment.js";
import type { Components } from "../../components/environment.js";
import type { Format } from "../../formats/format.js";
import { openOutputStore } from "../../sinks/open-output-store.js";
import type { SinkConfig } from "../../sinks/sink-config.js";
import { createFileJoin } from "../../sinks/file-join.js";
import { createSink } from "../../sinks/sink.js";
import type { FileJoin } from "../../sinks/file-join.js";
import { conformSink } from "../../warehouse/pipeline-schemas.js";
import type { ResolvedSinkSchema } from "../../warehouse/pipeline-schemas.js";
import { EtlError } from "../../errors.js";
import { keepsFiles } from "./destinations.js";
import type { IntendedFile } from "../output-state/state-schema.js";

/** A sink's section of the pipeline and its open store: what a run has before schemas are resolved. */
export interface OpenedSink {
  /** The sink's position in the pipeline; the state and the manifests name the sink by it. */
  index: number;
  config: SinkConfig;
  /** Its format, from the environment the pipeline was loaded with. */
  format: Format;
  store: OutputStore;
  /** Whether it writes files (not stdout): only such a sink keeps the state, a manifest and a pin. */
  keepsFiles: boolean;
}

/** A sink as the run's slices use it. */
export interface SinkRuntime extends OpenedSink {
  /** Its pinned schema: its files' columns, and how rows are renamed into them. */
  schema: ResolvedSinkSchema;
  /** The columns its encoder writes (the pinned schema's). */
  columns: readonly Column[];
  /** Its files of a batch slice joined as bytes, when its format and path template allow. */
  join: FileJoin | undefined;
  /** A fresh sink for one attempt at a slice, writing rows conformed to the schema. */
  createSink(): Sink;
  /**
   * A fresh sink for rows already under the schema's names and in its shape: the sink's own files of
   * a batch slice read back to be merged, which conforming again would empty.
   */
  createMergeSink(): Sink;
}

/** Removes a file the state records from its sink's store. */
export type RemoveRecordedFile = (file: IntendedFile) => Promise<void>;

/**
 * Opens each sink's store in the pipeline's order, adding it to `opened` as soon as it is open, so a
 * failure midway leaves the caller the stores to close.
 */
export async function openSinks(
  configs: readonly SinkConfig[],
  deps: { run: RunInfo; stdout: Writable; log: Logger; components: Components },
  opened: OpenedSink[],
): Promise<void> {
  const { run, stdout, log, components } = deps;
  const { destinations } = components;
  for (const [index, config] of configs.entries()) {
    // The log carries the run's identity: what a destination's library says becomes a line of the run.
    const store = await openOutputStore(config, { run, stdout, log }, destinations);
    const format = formatOf(components, config);
    opened.push({ index, config, format, store, keepsFiles: keepsFiles(config, destinations) });
  }
}

/** Removes recorded files from the store of the sink they name (nothing for a sink the run lacks). */
export function recordedFileRemover(sinks: readonly OpenedSink[]): RemoveRecordedFile {
  return async (file) => {
    await sinks.find((sink) => sink.index === file.sink)?.store.deleteObject(file.path);
  };
}

interface SinkRuntimeDeps {
  /** Each sink's resolved schema, in the pipeline's order. */
  schemas: readonly ResolvedSinkSchema[];
  run: RunInfo;
  log: Logger;
}

/** The opened sinks with their schemas, joins and sink factories. */
export function createSinkRuntimes(opened: readonly OpenedSink[], deps: SinkRuntimeDeps): SinkRuntime[] {
  const { run, log } = deps;
  return opened.map((sink): SinkRuntime => {
    const schema = deps.schemas[sink.index];
    // resolvePipelineSchemas gives one schema per sink; a missing one is a defect, not a user's error.
    if (schema === undefined) throw new EtlError("INTERNAL", `sink ${sink.index + 1} has no resolved schema`);
    const columns = schema.encoderColumns;
    const writes = { format: sink.format, store: sink.store, columns, run, log };
    return {
      ...sink,
      schema,
      columns,
      join: createFileJoin(sink.config, writes),
      createSink: () => conformSink(createSink(sink.config, writes), schema),
      createMergeSink: () => createSink(sink.config, writes),
    };
  });
}
