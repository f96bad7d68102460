// What a sink made of one slice: its files staged under temporary names, committed together (a few
// at a time, bounding S3's CompleteMultipartUpload requests in flight) or discarded together.
import type { SliceOutput, StagedFile, StagedWriter } from "../core/contracts.js";
import { SinkError } from "../errors.js";

/** Files committed at once; bounds the S3 CompleteMultipartUpload requests in flight. */
const COMMIT_CONCURRENCY = 8;

/** Aborts every writer; returns the failures. */
export async function abortAll(writers: readonly StagedWriter[]): Promise<unknown[]> {
  const results = await Promise.allSettled(writers.map((writer) => writer.abort()));
  return results.flatMap((result) => (result.status === "rejected" ? [result.reason] : []));
}

/** A slice's staged files, committed or discarded together. */
export function createSliceOutput(
  files: readonly StagedFile[],
  writers: readonly StagedWriter[],
  sliceId: string,
): SliceOutput {
  return {
    files,
    rows: files.reduce((sum, file) => sum + file.rows, 0),
    async commit() {
      for (let i = 0; i < writers.length; i += COMMIT_CONCURRENCY) {
        await Promise.all(writers.slice(i, i + COMMIT_CONCURRENCY).map((writer) => writer.commit()));
      }
    },
    async discard() {
      const failures = await abortAll(writers);
      if (failures.length > 0) {
        throw new SinkError(
          `discarding the output of slice ${sliceId} left ${failures.length} file(s) behind`,
          {
            code: "SINK_DISCARD_FAILED",
            cause: failures[0],
          },
        );
      }
    },
  };
}
