// What `schema` and `ddl` share: the pipeline, the columns the service maps for its kind, and each
// sink's schema as the next run would write it (compared with its pin under the drift policy).
import { loadPipeline } from "../config/load-pipeline.js";
import type { LoadOptions } from "../config/load-pipeline.js";
import type { Pipeline } from "../config/pipeline-schema.js";
import type { Column } from "../core/contracts.js";
import { destinationOf, openOutputStore } from "../sinks/open-output-store.js";
import { resolvePipelineSchemas } from "../warehouse/pipeline-schemas.js";
import type { ResolvedSinkSchema, SchemaSink } from "../warehouse/pipeline-schemas.js";
import type { CliIO } from "./io.js";
import { argumentError } from "./command-options.js";
import { commandLogger } from "./command-logger.js";
import { sourceColumnsFromService } from "../pipeline/run/output-columns.js";
import { newRunInfo } from "../pipeline/run/prepare-run.js";
import { openSession } from "../pipeline/run/session.js";
import { kindColumnNames } from "../kinds/data-kind.js";
import { kindOf } from "../components/environment.js";

interface LoadedSchemas {
  pipeline: Pipeline;
  schemas: ResolvedSinkSchema[];
}

/**
 * Asks the service for the kind's mappings only; reads each sink's pin, writes nothing. Logs on
 * stderr at `--log-level`, else MDQ_LOG_LEVEL (default warn), in MDQ_LOG_FORMAT.
 */
export async function loadSinkSchemas(
  file: string,
  io: CliIO,
  logLevel: string | undefined,
  time: Pick<LoadOptions, "now" | "overrides">,
): Promise<LoadedSchemas> {
  // As every command's: the flag, else MDQ_LOG_LEVEL and MDQ_LOG_FORMAT, else warn.
  const log = commandLogger({ "log-level": logLevel }, io, "warn");
  const pipeline = await loadPipeline(file, { env: io.env, components: io.components, ...time });
  const session = await openSession(pipeline.service, { log, quotaReserve: 0 });
  try {
    const { kinds } = io.components;
    const sourceColumns = await sourceColumnsFromService(
      session.client,
      pipeline.source,
      kinds,
      io.signal,
      log,
    );
    return { pipeline, schemas: await readSinkSchemas(pipeline, file, sourceColumns, io) };
  } finally {
    await session.close();
  }
}

/** Each sink's schema against the pin beside its output (read, never written). */
export async function readSinkSchemas(
  pipeline: Pipeline,
  file: string,
  sourceColumns: readonly Column[],
  io: CliIO,
): Promise<ResolvedSinkSchema[]> {
  const { destinations, transforms } = io.components;
  const sinks: SchemaSink[] = [];
  try {
    const run = newRunInfo(pipeline.name);
    for (const config of pipeline.sinks)
      sinks.push({
        config,
        store:
          destinationOf(config, destinations).stream === true
            ? undefined
            : await openOutputStore(config, { run, stdout: io.stdout }, destinations),
      });
    return await resolvePipelineSchemas({
      pipeline,
      transforms,
      pipelineFile: file,
      sourceColumns,
      sinks,
      kindNames: kindColumnNames(kindOf(io.components, pipeline.source.kind), pipeline.source),
    });
  } finally {
    for (const { store } of sinks) await store?.close().catch(() => undefined);
  }
}

/** `--sink N` (1-based) checked against the pipeline's sinks. */
export function sinkIndex(value: string | undefined, pipeline: Pipeline): number | undefined {
  if (value === undefined) return undefined;
  const index = Number(value);
  if (!Number.isInteger(index) || index < 1 || index > pipeline.sinks.length)
    throw argumentError(
      "--sink",
      `--sink: "${value}" is not a sink number from 1 to ${pipeline.sinks.length}`,
    );
  return index - 1;
}
