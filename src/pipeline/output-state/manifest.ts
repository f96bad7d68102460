// The manifest each destination gets at the end of a run: every committed file with rows, bytes and
// checksum, and per slice the count the service reported beside the count read and written.
import type { OutputStore } from "../../core/contracts.js";
import type { Manifest, ManifestFile, ManifestSlice } from "./manifest-schema.js";
import { shardSuffix } from "../plan/shard.js";
import type { Shard } from "../plan/shard.js";
import type { CommittedFile, RunState } from "./state-schema.js";

export type { Manifest } from "./manifest-schema.js";

export const SUCCESS_MARKER = "_SUCCESS";

export function manifestObjectPath(shard?: Shard): string {
  return `_manifest${shardSuffix(shard)}.json`;
}

/** `_SUCCESS`, or the shard's own marker. */
export function successMarkerPath(shard?: Shard): string {
  return `${SUCCESS_MARKER}${shardSuffix(shard)}`;
}

interface BuildManifestOptions {
  state: Readonly<RunState>;
  sinkIndex: number;
  runId: string;
  destination: string;
  format: string;
  window: { start: Date; end: Date };
  complete: boolean;
  now: Date;
}

/** A file the state records, as the manifest lists it under slice `id`. */
function manifestFile(file: CommittedFile, id: string): ManifestFile {
  const { path, rows, bytes, sha256, replaced_surrogates: replaced } = file;
  return {
    path,
    slice: id,
    rows,
    bytes,
    sha256,
    ...(replaced === undefined ? {} : { replaced_surrogates: replaced }),
  };
}

/** The manifest of one sink, from the state: every committed slice, in time order. */
export function buildManifest(options: BuildManifestOptions): Manifest {
  const { state, sinkIndex } = options;
  const entries = Object.entries(state.slices).sort(([, a], [, b]) => a.start.localeCompare(b.start));
  const slices: ManifestSlice[] = [];
  const files: ManifestFile[] = [];
  const list = (id: string, of: readonly CommittedFile[]): void => {
    for (const file of of) if (file.sink === sinkIndex) files.push(manifestFile(file, id));
  };
  for (const [id, slice] of entries) {
    const own = slice.files.filter((file) => file.sink === sinkIndex);
    slices.push({
      id,
      start: slice.start,
      end: slice.end,
      expected: slice.expected,
      read: slice.read,
      duplicates: slice.duplicates,
      written: own.reduce((sum, file) => sum + file.rows, 0),
      files: own.length,
      ...(slice.open === true ? { open: true as const } : {}),
      ...(state.rechecks[id] === undefined ? {} : { rechecks: state.rechecks[id] }),
    });
    list(id, own);
  }
  // Partitions of a batch slice that a stopped run committed are present too; list them, so the
  // manifest names every file there is (the slice's expected count is not known until it completes).
  // Once merged, the partition files are on their way out and the merged files are the slice's.
  for (const [id, batch] of Object.entries(state.batches))
    if (state.slices[id] === undefined)
      list(id, batch.merged ?? Object.values(batch.parts).flatMap((part) => part.files));
  // Files of the pipeline before a --force whose slices are not redone yet are still there: listed
  // (under their slice, which is not committed), so the manifest names exactly the files present.
  for (const [id, superseded] of Object.entries(state.superseded))
    if (state.slices[id] === undefined) list(id, superseded);
  return {
    version: 1,
    pipeline: state.pipeline,
    fingerprint: state.fingerprint,
    run_id: options.runId,
    generated_at: options.now.toISOString(),
    destination: options.destination,
    format: options.format,
    window: { start: options.window.start.toISOString(), end: options.window.end.toISOString() },
    complete: options.complete,
    totals: manifestTotals(slices, files),
    slices,
    files,
  };
}

/**
 * A manifest's totals, from its slices and files: a run's own, or the shards' merged. The expected
 * count is known only when every slice's is.
 */
export function manifestTotals(
  slices: readonly ManifestSlice[],
  files: readonly ManifestFile[],
): Manifest["totals"] {
  const expectedKnown = slices.every((slice) => slice.expected !== null);
  return {
    slices: slices.length,
    files: files.length,
    rows: files.reduce((sum, file) => sum + file.rows, 0),
    bytes: files.reduce((sum, file) => sum + file.bytes, 0),
    expected: expectedKnown ? slices.reduce((sum, slice) => sum + (slice.expected ?? 0), 0) : null,
  };
}

/** Writes the manifest, then `_SUCCESS` when the whole window is committed (and removes a stale one otherwise). */
export async function writeManifest(
  store: OutputStore,
  manifest: Manifest,
  shard?: { index: number; count: number },
): Promise<void> {
  await store.putObject(manifestObjectPath(shard), `${JSON.stringify(manifest, null, 2)}\n`);
  const marker = successMarkerPath(shard);
  if (manifest.complete) await store.putObject(marker, "");
  else await store.deleteObject(marker);
}
