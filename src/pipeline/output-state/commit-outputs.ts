// Makes a slice's (or a part's) staged files visible and lists them as the state records them. The
// final names are recorded first (`recordIntent`), so a crash between a rename and the state's record
// of it leaves no file the next run does not know to remove (see docs/operations.md).
import type { SliceOutput } from "../../core/contracts.js";
import type { CommittedFile, IntendedFile } from "./state-schema.js";
import { reachedCommitStep } from "../../core/test-hook.js";

/** A slice's (or part's) counts and committed files, as the state records them. */
export interface SliceTotals {
  read: number;
  expected: number | undefined;
  duplicates: number;
  files: CommittedFile[];
}

/** Records, durably, the final names the renames are about to create. */
export type RecordIntent = (files: readonly IntendedFile[]) => Promise<void>;

/**
 * Commits every sink's output, in the pipeline's order of sinks, once their final names are recorded.
 * `fence` (the output lock's) is awaited first: when it throws, the run may no longer write, and the
 * staged files are discarded instead.
 */
export async function commitOutputs(
  outputs: readonly SliceOutput[],
  recordIntent: RecordIntent,
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
    for (const file of output.files) {
      const replaced = file.replacedSurrogates ?? 0;
      files.push({
        sink,
        path: file.path,
        rows: file.rows,
        bytes: file.bytes,
        sha256: file.sha256,
        ...(replaced > 0 ? { replaced_surrogates: replaced } : {}),
      });
    }
  }
  reachedCommitStep("commit-staged");
  await recordIntent(files);
  reachedCommitStep("commit-intent");
  for (const output of outputs) await output.commit();
  reachedCommitStep("commit-renamed");
  return files;
}
