// Makes a slice's (or a part's) staged files visible and lists them as the state records them.
import type { SliceOutput } from "./contracts.js";
import type { CommittedFile } from "./state.js";

/** A slice's (or part's) counts and committed files, as the state records them. */
export interface SliceTotals {
  read: number;
  expected: number | undefined;
  duplicates: number;
  files: CommittedFile[];
}

/**
 * Commits every sink's output, in the pipeline's order of sinks. `fence` (the output lock's) is awaited
 * first: when it throws, the run may no longer write, and the staged files are discarded instead.
 */
export async function commitOutputs(
  outputs: readonly SliceOutput[],
  fence?: () => Promise<void>,
): Promise<CommittedFile[]> {
  try {
    await fence?.();
  } catch (error) {
    await Promise.allSettled(outputs.map((output) => output.discard()));
    throw error;
  }
  const files: CommittedFile[] = [];
  for (const [sink, output] of outputs.entries()) {
    await output.commit();
    for (const file of output.files) {
      files.push({ sink, path: file.path, rows: file.rows, bytes: file.bytes, sha256: file.sha256 });
    }
  }
  return files;
}
