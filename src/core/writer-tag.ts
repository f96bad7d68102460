// Which run wrote a temporary file: a short tag of the run id in the file's name, so a run that took
// over an output removes what dead runs left and never what a paused, still living one is writing.
import { createHash } from "node:crypto";
import type { OutputStore } from "./contracts.js";

/** Twelve hex digits of the run id's hash: safe in any file name, and unique enough among runs. */
export function writerTag(runId: string): string {
  return createHash("sha256").update(runId).digest("hex").slice(0, 12);
}

/**
 * The store, with a leftover sweep that spares the temporary files of `writers` (runs whose lock was
 * taken over while they may still live: they remove their own files when they notice).
 */
export function sparingWriters(store: OutputStore, writers: ReadonlySet<string>): OutputStore {
  const sweep = store.removeLeftovers?.bind(store);
  if (sweep === undefined || writers.size === 0) return store;
  return {
    ...store,
    removeLeftovers: (owns) =>
      sweep((path, writer) => (writer === undefined || !writers.has(writer)) && owns(path, writer)),
  };
}
