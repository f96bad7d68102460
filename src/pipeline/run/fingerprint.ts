// A stable hash of everything in a pipeline that shapes its output, so a rerun can tell whether the
// files already written still belong to the same export. Where the output is (a sink's `to`) is not
// part of it: an output moved or copied elsewhere is the same export. Which pipeline owns an output
// is the state's `pipeline` name, checked on its own (output-state/state-owner.ts).
import { createHash } from "node:crypto";
import type { Pipeline } from "../../config/pipeline-schema.js";
import { sinkIdentity } from "../../sinks/open-output-store.js";
import type { DestinationTable } from "../../sinks/open-output-store.js";

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === "object" && !(value instanceof Date)) {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, inner]) => inner !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return Object.fromEntries(entries.map(([key, inner]) => [key, canonical(inner)]));
  }
  return value;
}

/** Hex SHA-256 of the canonical JSON of `value` (object keys sorted, undefined dropped). */
export function fingerprintOf(value: unknown): string {
  return createHash("sha256")
    .update(JSON.stringify(canonical(value)))
    .digest("hex");
}

/** The pipeline as far as it decides the records, each sink given by `sink`. */
function recordsDecidedBy(pipeline: Pipeline, sink: (config: Pipeline["sinks"][number]) => unknown): unknown {
  const { source, transforms, sinks, name } = pipeline;
  const { window: _window, ...query } = source;
  return { name, query, transforms, sinks: sinks.map(sink) };
}

/**
 * What decides whether files already written belong to this export: the name (records may carry
 * it), the query, transforms and sinks (format, naming, path template, …), but not the window (a
 * rerun over a wider window keeps what it has), nor where a sink writes (`to`), nor a destination's
 * options that do not change the output (see `sinkIdentity`).
 */
export function outputFingerprint(pipeline: Pipeline, destinations: DestinationTable): string {
  return fingerprintOf(
    recordsDecidedBy(pipeline, (config) => {
      const { to: _location, ...identity } = sinkIdentity(config, destinations);
      return identity;
    }),
  );
}

/**
 * The fingerprints earlier versions wrote for the same pipeline, so their states open without a
 * spurious "changed" (and take the current fingerprint): before, each sink's `to` was hashed with the
 * rest. Such a state moved elsewhere before a run of this version cannot be told from a changed one.
 */
export function earlierOutputFingerprints(pipeline: Pipeline, destinations: DestinationTable): string[] {
  return [fingerprintOf(recordsDecidedBy(pipeline, (config) => sinkIdentity(config, destinations)))];
}
