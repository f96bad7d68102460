// The codes of a run's slices and end: counts that do not reconcile, slices that fail or give up, a run
// stopped (by a signal, a full destination, a closed output), and the code of a defect.
import type { ErrorCodeInfo } from "./error-code-info.js";

export const RUN_ERRORS = {
  RECONCILIATION_FAILED: {
    exit: "failed",
    meaning:
      "The records written differ from the count the service reported for the slice, after the retries.",
    action: "Run again; if it persists, report the slice and both counts.",
  },
  SLICE_FAILED: {
    exit: "failed",
    meaning: "A slice failed with an error that retrying does not cure; the cause says which.",
    action: "Fix what the cause names; committed slices are kept.",
  },
  SLICE_GAVE_UP: {
    exit: "resumable",
    meaning:
      "A request of a slice failed through its whole retry budget (the service unavailable), or the slice kept losing its paging context past `limits.max_retries_per_slice`, and the run stopped.",
    action: "Run the same command again later; it resumes.",
  },
  STOPPED: {
    exit: "resumable",
    meaning: "The run was stopped by a signal (SIGTERM, SIGINT).",
    action: "Run the same command again; it resumes.",
  },
  OUTPUT_FULL: {
    exit: "resumable",
    meaning:
      "The output's file system is full (ENOSPC), the user's disk quota is used up (EDQUOT), or the S3-compatible store said it has no space; the slice being written was not committed and the run stopped. Also stdout redirected to a full file or device.",
    action:
      "Free space at the output the message names (or raise the quota) and run the same command again; it resumes from the last committed slice.",
  },
  OUTPUT_CLOSED: {
    exit: "resumable",
    meaning:
      "The reader of stdout closed it (`run ... | head`); the run stopped without an error message, and its log line says whether a rerun resumes (a pipeline that writes only to stdout keeps no state). Commands that only print (`fields`, `plan`, `schema`) end with exit 0 instead.",
    action:
      "Nothing when the reader wanted only the first lines; otherwise check the program reading stdout.",
  },
  INTERNAL: {
    exit: "failed",
    meaning:
      "An unexpected error, not one of the listed ones (a defect); the run report and metrics give it this code.",
    action: "Run again with --debug and report the cause chain it prints.",
  },
} as const satisfies Record<string, ErrorCodeInfo>;
