// A destination out of space (the file system or the user's quota full, or an S3-compatible store
// that says so) stops the run resumable: nothing partial is committed, and the same command resumes
// from the last committed slice once space is freed.
import { SinkError } from "../errors.js";

/** errno codes that mean the destination has no room left: the file system, or the user's quota. */
const FULL_CODES: ReadonlySet<string> = new Set(["ENOSPC", "EDQUOT"]);

/** The errno code (ENOSPC, EDQUOT) that says the destination is full, anywhere in the cause chain. */
export function outputFullCode(error: unknown): string | undefined {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 8; cause = cause.cause, depth++) {
    const code = (cause as NodeJS.ErrnoException).code;
    if (typeof code === "string" && FULL_CODES.has(code)) return code;
  }
  return undefined;
}

/**
 * The error for `action` (such as "writing out/part-0.ndjson") failing because `location`, the output
 * store, is full; `why` names what said so (ENOSPC, EDQUOT, the store's error code).
 * @example throw outputFull("out", "writing out/part-0.ndjson", "ENOSPC", error);
 */
export function outputFull(location: string, action: string, why: string, cause: unknown): SinkError {
  const what = why === "EDQUOT" ? "the disk quota of this user is used up" : "no space is left";
  return new SinkError(
    `${action} failed (${why}): ${what} at the output ${location}; free space there (or raise the quota) ` +
      "and run the same command again: it resumes from the last committed slice",
    { code: "OUTPUT_FULL", cause },
  );
}
