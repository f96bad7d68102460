// A stable hash of everything in a pipeline that shapes its output, so a rerun can tell whether the
// files already written still belong to the same export.
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

/**
 * What decides whether files already written belong to this export: the query, transforms and sinks,
 * but not the window (a rerun over a wider window keeps what it has) nor a destination's options that
 * do not change the output (see `sinkIdentity`).
 */
export function outputFingerprint(pipeline: Pipeline, destinations: DestinationTable): string {
  const { source, transforms, sinks, name } = pipeline;
  const { window: _window, ...query } = source;
  return fingerprintOf({
    name,
    query,
    transforms,
    sinks: sinks.map((sink) => sinkIdentity(sink, destinations)),
  });
}
